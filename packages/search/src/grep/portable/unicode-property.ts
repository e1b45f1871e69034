// Rust's regex syntax names Unicode properties loosely (`\p{greek}`, `\p{Uppercase Letter}`, `\p{sc=Greek}`); a
// JavaScript regular expression takes only the exact names of the ECMAScript tables. This maps one onto the other.

/** ECMAScript's binary properties (its table of them), by their names and aliases. */
const BINARY_PROPERTIES = `
  ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control Bidi_C Bidi_Mirrored Bidi_M
  Case_Ignorable CI Cased Changes_When_Casefolded CWCF Changes_When_Casemapped CWCM Changes_When_Lowercased
  CWL Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT Changes_When_Uppercased CWU Dash
  Default_Ignorable_Code_Point DI Deprecated Dep Diacritic Dia Emoji Emoji_Component EComp Emoji_Modifier EMod
  Emoji_Modifier_Base EBase Emoji_Presentation EPres Extended_Pictographic ExtPict Extender Ext Grapheme_Base
  Gr_Base Grapheme_Extend Gr_Ext Hex_Digit Hex IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST ID_Continue
  IDC ID_Start IDS Ideographic Ideo Join_Control Join_C Logical_Order_Exception LOE Lowercase Lower Math
  Noncharacter_Code_Point NChar Pattern_Syntax Pat_Syn Pattern_White_Space Pat_WS Quotation_Mark QMark Radical
  Regional_Indicator RI Sentence_Terminal STerm Soft_Dotted SD Terminal_Punctuation Term Unified_Ideograph
  UIdeo Uppercase Upper Variation_Selector VS White_Space space XID_Continue XIDC XID_Start XIDS
`
  .trim()
  .split(/\s+/);

/** ECMAScript's General_Category values, by their names and aliases. */
const GENERAL_CATEGORIES = `
  Cased_Letter LC Close_Punctuation Pe Connector_Punctuation Pc Control Cc cntrl Currency_Symbol Sc
  Dash_Punctuation Pd Decimal_Number Nd digit Enclosing_Mark Me Final_Punctuation Pf Format Cf
  Initial_Punctuation Pi Letter L Letter_Number Nl Line_Separator Zl Lowercase_Letter Ll Mark M Combining_Mark
  Math_Symbol Sm Modifier_Letter Lm Modifier_Symbol Sk Nonspacing_Mark Mn Number N Open_Punctuation Ps Other C
  Other_Letter Lo Other_Number No Other_Punctuation Po Other_Symbol So Paragraph_Separator Zp Private_Use Co
  Punctuation P punct Separator Z Space_Separator Zs Spacing_Mark Mc Surrogate Cs Symbol S Titlecase_Letter Lt
  Unassigned Cn Uppercase_Letter Lu
`
  .trim()
  .split(/\s+/);

/** Rust compares names ignoring case, spaces, `_` and `-`. */
function looseKey(name: string): string {
  return name.replace(/[\s_-]/g, '').toLowerCase();
}

function byLooseKey(names: readonly string[]): Map<string, string> {
  return new Map(names.map((name) => [looseKey(name), name]));
}

let binaryByKey: Map<string, string> | undefined;
let categoryByKey: Map<string, string> | undefined;

/** A script name in the form ECMAScript spells them: words in title case joined by `_` (`Old_Italic`). */
function scriptName(value: string): string {
  return value
    .trim()
    .split(/[\s_-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('_');
}

function isValid(name: string): boolean {
  try {
    new RegExp(`\\p{${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The JavaScript name (`L`, `Script=Greek`, `White_Space`) of the property a Rust pattern names inside `\p{...}`, and
 * whether `!=` negated it; `undefined` when JavaScript knows no such property.
 */
export function javaScriptProperty(rustName: string): { name: string; negated: boolean } | undefined {
  binaryByKey ??= byLooseKey(BINARY_PROPERTIES);
  categoryByKey ??= byLooseKey(GENERAL_CATEGORIES);
  const assignment = /^([^=:!]*)(!=|=|:)(.*)$/s.exec(rustName);
  if (assignment !== null) {
    const [, property = '', operator, value = ''] = assignment;
    const key = looseKey(property);
    let name: string | undefined;
    if (key === 'gc' || key === 'generalcategory') name = categoryByKey.get(looseKey(value));
    else if (key === 'sc' || key === 'script') name = `Script=${scriptName(value)}`;
    else if (key === 'scx' || key === 'scriptextensions') name = `Script_Extensions=${scriptName(value)}`;
    return name !== undefined && isValid(name) ? { name, negated: operator === '!=' } : undefined;
  }
  const key = looseKey(rustName);
  for (const name of [categoryByKey.get(key), `Script=${scriptName(rustName)}`, binaryByKey.get(key)]) {
    if (name !== undefined && isValid(name)) return { name, negated: false };
  }
  return undefined;
}
