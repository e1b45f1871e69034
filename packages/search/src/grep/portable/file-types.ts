import { compileSegmentMatcher } from '../../glob/wildcard-match.js';

/**
 * The file types Grep's `type` names in the portable search: the common languages and formats, each by the file names
 * usual for it. ripgrep knows several hundred; a type missing here is refused with the list of these.
 */
const FILE_TYPES: Readonly<Record<string, string>> = {
  asm: '*.asm *.s *.S',
  c: '*.c *.h *.H',
  clojure: '*.clj *.cljc *.cljs *.cljx *.edn',
  cmake: '*.cmake CMakeLists.txt',
  cpp: '*.C *.cc *.cpp *.cxx *.c++ *.h *.H *.hh *.hpp *.hxx *.h++ *.inl *.ipp',
  cs: '*.cs *.csx',
  css: '*.css *.scss',
  csv: '*.csv',
  d: '*.d',
  dart: '*.dart',
  docker: 'Dockerfile Dockerfile.* *.Dockerfile *.dockerfile',
  elixir: '*.ex *.exs *.eex *.heex *.leex',
  elm: '*.elm',
  erlang: '*.erl *.hrl',
  fsharp: '*.fs *.fsi *.fsx',
  go: '*.go',
  graphql: '*.graphql *.graphqls *.gql',
  groovy: '*.groovy *.gradle',
  haskell: '*.hs *.lhs *.hsc *.cabal',
  html: '*.htm *.html *.ejs',
  ini: '*.ini',
  java: '*.java *.jsp *.jspx *.properties',
  js: '*.js *.jsx *.mjs *.cjs *.vue',
  json: '*.json',
  jsonl: '*.jsonl',
  julia: '*.jl',
  kotlin: '*.kt *.kts',
  less: '*.less',
  lua: '*.lua',
  make: 'Makefile makefile GNUmakefile *.mk *.mak',
  markdown: '*.md *.markdown *.mdown *.mkd *.mkdn *.mdx',
  md: '*.md *.markdown *.mdown *.mkd *.mkdn *.mdx',
  nim: '*.nim *.nims *.nimble',
  nix: '*.nix',
  objc: '*.h *.m',
  ocaml: '*.ml *.mli *.mll *.mly',
  perl: '*.pl *.pm *.pod *.t',
  php: '*.php *.php3 *.php4 *.php5 *.phtml',
  protobuf: '*.proto',
  powershell: '*.ps1 *.psm1 *.psd1',
  py: '*.py *.pyi',
  r: '*.R *.r *.Rmd *.Rnw',
  rst: '*.rst',
  ruby: '*.rb *.gemspec *.rake Gemfile Rakefile .irbrc',
  rust: '*.rs',
  sass: '*.sass *.scss',
  scala: '*.scala *.sbt *.sc',
  sh: '*.sh *.bash *.zsh *.ksh *.csh *.tcsh .bashrc .bash_profile .bash_login .profile .zshrc .zprofile .zshenv',
  sql: '*.sql *.psql',
  svelte: '*.svelte',
  swift: '*.swift',
  tex: '*.tex *.ltx *.cls *.sty *.bib',
  tf: '*.tf *.tfvars *.tf.json',
  toml: '*.toml Cargo.lock',
  ts: '*.ts *.tsx *.mts *.cts',
  txt: '*.txt',
  vim: '*.vim .vimrc .gvimrc',
  vue: '*.vue',
  xml: '*.xml *.xml.dist *.xsd *.xsl *.xslt *.dtd',
  svg: '*.svg',
  yaml: '*.yaml *.yml',
  zig: '*.zig',
};

/** A `type` the portable search knows: whether a file name is of it. */
export type FileTypeTest = (name: string) => boolean;

/** The test of `type`, or the error ripgrep gives for a type it does not know (with the ones known here). */
export function fileTypeTest(type: string): { ok: true; test: FileTypeTest } | { ok: false; error: string } {
  const globs = Object.hasOwn(FILE_TYPES, type) ? FILE_TYPES[type] : undefined;
  if (globs === undefined) {
    return {
      ok: false,
      error: `unrecognized file type: ${type} (the portable search knows ${Object.keys(FILE_TYPES).sort().join(', ')})`,
    };
  }
  const matchers = globs
    .split(' ')
    .map((glob) => compileSegmentMatcher(glob) ?? ((name: string) => name === glob));
  return { ok: true, test: (name) => matchers.some((matches) => matches(name)) };
}
