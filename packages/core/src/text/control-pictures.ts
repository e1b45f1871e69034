// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNUSABLE = /[\u0000-\u0008\u000a-\u001f\u007f]/g;
/** {@link UNUSABLE} without its global flag: the one test a line without a control character costs. */
const HOLDS_UNUSABLE = new RegExp(UNUSABLE.source);

/** U+2400 CONTROL PICTURES holds one picture per C0 control (␀ ... ␟) and ␡ for DEL. */
function picture(character: string): string {
  const code = character.charCodeAt(0);
  return String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
}

/**
 * `text` with every C0 control character but tab, and DEL, replaced by its Unicode control picture (`\u0000` → `␀`,
 * ESC → `␛`, form feed → `␌`, DEL → `␡`): a model can neither read nor write those characters reliably, and a raw
 * NUL or ESC in its context is never what it should see. One character stays one character; text without such a
 * character comes back as it is, after a single test (a search passes every line of a large output through it).
 */
export function showControlCharacters(text: string): string {
  return HOLDS_UNUSABLE.test(text) ? text.replace(UNUSABLE, picture) : text;
}
