// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNUSABLE = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/** U+2400 CONTROL PICTURES holds one picture per C0 control (␀ ... ␟) and ␡ for DEL. */
function picture(character: string): string {
  const code = character.charCodeAt(0);
  return String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
}

/**
 * `text` with every C0 control character but tab, and DEL, replaced by its Unicode control picture (`\u0000` → `␀`,
 * ESC → `␛`, form feed → `␌`, DEL → `␡`): a model can neither read nor write those characters reliably, and a raw
 * NUL or ESC in its context is never what it should see. One character stays one character.
 */
export function showControlCharacters(text: string): string {
  return text.replace(UNUSABLE, picture);
}
