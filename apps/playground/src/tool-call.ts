import { fillPlaceholdersInJson, type Placeholders } from './placeholders.js';

/**
 * The JSON text of a call's arguments, as a model would send it: the script's text as is, or its object
 * serialised, with `{{workdir}}` / `{{outside}}` filled in. The tool set takes the text as it is: parsing it, and
 * refusing it when it is not valid JSON, is core's job (docs/results.md#argument-validation).
 */
export function argumentsText(
  args: string | Record<string, unknown> | undefined,
  values: Placeholders,
): string {
  const text = args === undefined ? '{}' : typeof args === 'string' ? args : JSON.stringify(args);
  return fillPlaceholdersInJson(text, values);
}
