// The real notebooks of fixtures/ (README there), and the nbformat JSON schema check the tests run on edited ones.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import Ajv04 from 'ajv-draft-04';

const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

/** Every fixture notebook, with what the tests need to know about it. */
export const NOTEBOOK_FIXTURES = [
  { name: 'nbformat-test4.5.ipynb', editable: true, schemaValid: true },
  { name: 'nbformat-test3.ipynb', editable: false, schemaValid: true },
  { name: 'nbformat-invalid-schema.ipynb', editable: true, schemaValid: false },
  { name: 'nbstripout-invalid-json.ipynb', editable: false, schemaValid: false },
  { name: 'nbstripout-output-types-string-source.ipynb', editable: true, schemaValid: true },
  { name: 'notebook-working-with-markdown-cells.ipynb', editable: true, schemaValid: true },
  { name: 'jupyterlab-windowed-notebook.ipynb', editable: true, schemaValid: true },
  { name: 'vscode-with3cells-and-output-4space.ipynb', editable: true, schemaValid: true },
  { name: 'vscode-test-json-contents.ipynb', editable: true, schemaValid: true },
  { name: 'dotnet-csharp-code-cells-crlf.ipynb', editable: true, schemaValid: true },
  { name: 'colab-how-to-use-slideshow-mode.ipynb', editable: true, schemaValid: true },
  { name: 'handson-ml2-09-unsupervised-learning-large.ipynb', editable: true, schemaValid: true },
] as const;

/** The bytes of a fixture notebook. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(path.join(FIXTURES_DIR, name));
}

/** A validator per nbformat version, against the vendored nbformat JSON schemas (draft-04, BSD-3-Clause). */
export function createNotebookValidator(): (notebook: {
  nbformat: number;
  nbformat_minor: number;
}) => string[] {
  // strict: false, because the v4.4 and v4.5 schemas hold keywords ajv does not know ("item", "source_hidden").
  const ajv = new Ajv04({ strict: false, allErrors: true });
  const compiled = new Map<string, ValidateFunction>();
  return (notebook) => {
    const file =
      notebook.nbformat === 3
        ? 'nbformat.v3.schema.json'
        : `nbformat.v4.${Math.min(notebook.nbformat_minor, 5)}.schema.json`;
    let validate = compiled.get(file);
    if (!validate) {
      const schema = JSON.parse(
        readFileSync(path.join(FIXTURES_DIR, 'nbformat-schemas', file), 'utf8'),
      ) as object;
      validate = ajv.compile(schema);
      compiled.set(file, validate);
    }
    return validate(notebook)
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  };
}
