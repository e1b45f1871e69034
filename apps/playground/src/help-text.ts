/** What `--help` prints. */
export const HELP_TEXT = `kimi-tools playground: a fake agent session that drives every @kimi-tools file tool

Usage:
  pnpm playground [OPTIONS]             (from the repository root; builds first)
  node apps/playground/dist/main.js [OPTIONS]
  node apps/playground/dist/main.js --in-memory [OPTIONS]
  node apps/playground/dist/main.js --ssh [USER@]HOST[:PORT] DIR [OPTIONS]

Without options, copies the sample project (apps/playground/sample) into a temporary directory and plays the
default script (apps/playground/scripts/default.json): a fake model sends JSON tool calls to Glob, Grep,
ReadFile, StrReplaceFile, NotebookEdit, WriteFile, ApplyPatch and ReadMediaFile, and at the user's word takes a
change back with ListCheckpoints and Rewind (a checkpoint is taken at each user message). Every call is printed with
its approval prompt (a coloured diff) and its result. At the end, the file history lists what changed and the last
change is undone.

Options:
  --script FILE     play this session instead of the default one (format below)
  --workdir DIR     work on DIR itself instead of a sample copy (needs --script; files are really changed)
  --answers LIST    answers to approval requests, in order, comma-separated: y,a,n:use tabs,h:h1+h3,e,...
                    (repeatable; feedback cannot contain a comma)
  --yolo            approve automatically, even in a terminal
  --keep            keep the temporary directory (sample copy and outside directory) and print its path
  --no-undo         do not undo the last change at the end
  --in-memory       the files are in memory, not on a disk: the same session, gone when it ends
  --ssh [USER@]HOST[:PORT] DIR
                    the files are on that host, reached over SSH: the temporary directory is made in DIR there
                    (keys from ~/.ssh and the agent of SSH_AUTH_SOCK, the host key from ~/.ssh/known_hosts)
  --identity FILE   with --ssh: log in with this private key only
  --host-key KEY    with --ssh: the host's public key line or SHA256: fingerprint (known_hosts is not read)
  --permissions FILE  permission rules to use instead of the work dir's .kimi-tools/permissions
  -h, --help        show this help

Answers:
  y          approve this change
  a          approve this and every later change of the same action (edit file, or edit file outside of
             working directory) for the rest of the session; in a terminal, a asks what it covers (f, d or a)
  a:file     approve this and every later change of the same action to the same files, for the session
  a:dir      approve this and every later change of the same action under the same directories, for the session
  n          reject; in a terminal you are then asked for feedback for the model
  n:TEXT     reject with feedback TEXT (the model reads "The tool call is rejected by the user. User feedback: TEXT")
  h:HUNKS    approve only these hunks of the change, joined by + (h:h1+h3, or h:h1+h3:TEXT with feedback); in a
             terminal, h asks y/n for each hunk
  e          approve your own version: the step's scripted "edit", else $VISUAL or $EDITOR opens each proposed file

Permission rules (docs/permissions.md): the work dir's .kimi-tools/permissions, or --permissions FILE, one
rule a line (allow Edit(src/**), deny Edit(**/*.lock), ask WriteFile(.github/**); # for comments). A change
a rule allows or denies is shown with that rule and asks nothing; an ask rule's request is asked even after
an "a", and names the rule. The sample project has rules of its own.

Who answers an approval request, first match wins:
  1. the step's own "answer" in the script (so a scripted rejection happens in every mode, even after an "a");
  2. the next unused --answers entry;
  3. you, when stdin and stdout are a terminal and --yolo is not given;
  4. nobody: the change is approved automatically.

Script format: a JSON array of steps, played in order. A step is { "user": "what the user says" } (a checkpoint
is taken first, as a host takes one at each user message), or
  {
    "say": "what the model says first (optional)",
    "name": "StrReplaceFile",
    "arguments": { "path": "src/todo.ts", "edit": { "old": "a", "new": "b" } },
    "answer": "n:keep it short",
    "expect": {
      "isError": false,
      "brief": "exact brief",
      "message": "substring of the message",
      "output": "substring of the output text",
      "approval": "edit file",
      "file": { "path": "src/todo.ts", "contains": "b" }
    }
  }
  name        the tool: Glob, Grep, ReadFile, StrReplaceFile, NotebookEdit, WriteFile, ApplyPatch, ReadMediaFile,
              ListCheckpoints, Rewind
  arguments   a JSON object, or the JSON text itself (as a model streams it; invalid JSON is an error result)
  answer      y, a, a:file, a:dir, n, n:TEXT, h:HUNKS or e for this call's approval prompt (optional)
  edit        with "answer": "e", the scripted user's changes to the proposal, made in order:
              [{ "path": "src/todo.ts", "old": "proposed text", "new": "your text" }] (path optional when the
              change writes one file)
  expect      every field optional; "approval" is the action asked (null: no approval asked);
              "file" (one or a list) checks a file afterwards: "content" (exact bytes, "\\r\\n" counts),
              "contains", "exists" (true/false), "lineEndings" ("lf" or "crlf", every break)
  A step with only "say" is the model talking. In argument strings and file paths, {{workdir}} is the work
  directory and {{outside}} an empty temporary directory outside the workspace.

The runtime: work dir = the sample copy or --workdir; approvals as above; read-before-write on; the model takes
images (capability image_in); file history on; checkpoints on, stored in a temporary directory of this machine
whatever the files are on.

Colours: on in a terminal; NO_COLOR=1 turns them off, FORCE_COLOR=1 forces them.
Exit status: 0 when every expectation holds, 1 when one fails (or the undo does), 2 on a usage or script
error, 130 when interrupted (Ctrl-C stops after the running call; a second Ctrl-C quits at once).
`;
