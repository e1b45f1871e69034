/**
 * Source files of common languages, each with the edits a model would make to it (docs/str-replace-file.md): the
 * exact strings are the intended change; the slip corpus derives the model's usual mistakes from them.
 */
export interface SlipSample {
  /** File name; the extension says the language. */
  name: string;
  content: string;
  /** How the file indents: one level, a tab or spaces. */
  indent: '\t' | '  ' | '    ';
  /** The language's line comment. */
  comment: string;
  /** The intended edit, exact: a few whole lines (without the last line break). */
  target: { old: string; new: string };
  /** An insertion after an anchor line: `new` repeats `old`. */
  anchor: { old: string; new: string };
  /** An `old` that matches more than one place. */
  ambiguous: string;
  /** An `old` the model made up: nowhere in the file. */
  invented: string;
}

export const SLIP_SAMPLES: readonly SlipSample[] = [
  {
    name: 'circle.py',
    indent: '    ',
    comment: '#',
    content:
      'import math\n\n\ndef area(radius):\n    if radius < 0:\n        raise ValueError("negative radius")\n    return math.pi * radius ** 2\n\n\ndef perimeter(radius):\n    return 2 * math.pi * radius\n\n\nif __name__ == "__main__":\n    print(area(2))\n',
    target: {
      old: '    if radius < 0:\n        raise ValueError("negative radius")',
      new: '    if radius <= 0:\n        raise ValueError("radius must be positive")',
    },
    anchor: { old: 'import math', new: 'import math\nimport sys' },
    ambiguous: 'math.pi * radius',
    invented: '    if radius is None:\n        return 0',
  },
  {
    name: 'shapes.go',
    indent: '\t',
    comment: '//',
    content:
      'package shapes\n\nimport "math"\n\n// Area returns the area of a circle.\nfunc Area(radius float64) float64 {\n\tif radius < 0 {\n\t\treturn 0\n\t}\n\treturn math.Pi * radius * radius\n}\n\nfunc Perimeter(radius float64) float64 {\n\treturn 2 * math.Pi * radius\n}\n',
    target: { old: '\tif radius < 0 {\n\t\treturn 0\n\t}', new: '\tif radius <= 0 {\n\t\treturn -1\n\t}' },
    anchor: { old: 'import "math"', new: 'import "math"\nimport "os"' },
    ambiguous: 'math.Pi * radius',
    invented: '\tif radius == 0 {\n\t\treturn 1\n\t}',
  },
  {
    name: 'config.ts',
    indent: '  ',
    comment: '//',
    content:
      "import { readFile } from 'node:fs/promises';\n\nexport async function loadConfig(path: string): Promise<Config> {\n  const text = await readFile(path, 'utf8');\n  if (text.trim() === '') {\n    throw new Error('empty config');\n  }\n  return JSON.parse(text) as Config;\n}\n\nexport function defaults(): Config {\n  return { retries: 3, verbose: false };\n}\n",
    target: {
      old: "  if (text.trim() === '') {\n    throw new Error('empty config');\n  }",
      new: "  if (text.trim() === '') {\n    return defaults();\n  }",
    },
    anchor: {
      old: "import { readFile } from 'node:fs/promises';",
      new: "import { readFile } from 'node:fs/promises';\nimport path from 'node:path';",
    },
    ambiguous: '  return ',
    invented: "  if (!text) {\n    throw new Error('missing');\n  }",
  },
  {
    name: 'cache.rs',
    indent: '    ',
    comment: '//',
    content:
      'use std::collections::HashMap;\n\npub struct Cache {\n    entries: HashMap<String, String>,\n    limit: usize,\n}\n\nimpl Cache {\n    pub fn get(&self, key: &str) -> Option<&String> {\n        self.entries.get(key)\n    }\n\n    pub fn insert(&mut self, key: String, value: String) {\n        if self.entries.len() >= self.limit {\n            self.entries.clear();\n        }\n        self.entries.insert(key, value);\n    }\n}\n',
    target: {
      old: '        if self.entries.len() >= self.limit {\n            self.entries.clear();\n        }',
      new: '        if self.entries.len() >= self.limit {\n            return;\n        }',
    },
    anchor: { old: 'use std::collections::HashMap;', new: 'use std::collections::HashMap;\nuse std::fmt;' },
    ambiguous: 'self.entries.',
    invented: '        if self.limit == 0 {\n            return;\n        }',
  },
  {
    name: 'Makefile',
    indent: '\t',
    comment: '#',
    content:
      'CC = gcc\nCFLAGS = -O2 -Wall\n\nall: app\n\napp: main.o util.o\n\t$(CC) $(CFLAGS) -o app main.o util.o\n\n%.o: %.c\n\t$(CC) $(CFLAGS) -c $<\n\nclean:\n\trm -f app *.o\n',
    target: { old: 'clean:\n\trm -f app *.o', new: 'clean:\n\trm -f app *.o\n\trm -rf build' },
    anchor: { old: 'CFLAGS = -O2 -Wall', new: 'CFLAGS = -O2 -Wall\nLDFLAGS = -lm' },
    ambiguous: '$(CC) $(CFLAGS)',
    invented: 'install:\n\tcp app /usr/local/bin',
  },
  {
    name: 'Counter.java',
    indent: '    ',
    comment: '//',
    content:
      'package app;\n\npublic class Counter {\n    private int count;\n\n    public void increment() {\n        count++;\n    }\n\n    public int get() {\n        return count;\n    }\n}\n',
    target: {
      old: '    public void increment() {\n        count++;\n    }',
      new: '    public synchronized void increment() {\n        count++;\n    }',
    },
    anchor: { old: 'package app;', new: 'package app;\n\nimport java.util.List;' },
    ambiguous: '    public ',
    invented: '    public void reset() {\n        count = 0;\n    }',
  },
  {
    name: 'greeter.rb',
    indent: '  ',
    comment: '#',
    content:
      'class Greeter\n  def initialize(name)\n    @name = name\n  end\n\n  def greet\n    puts "Hello, #{@name}!"\n  end\nend\n',
    target: {
      old: '  def greet\n    puts "Hello, #{@name}!"\n  end',
      new: '  def greet(greeting = "Hello")\n    puts "#{greeting}, #{@name}!"\n  end',
    },
    anchor: { old: 'class Greeter', new: 'class Greeter\n  VERSION = "1.0"' },
    ambiguous: '  end',
    invented: '  def farewell\n    puts "Bye"\n  end',
  },
  {
    name: 'clamp.c',
    indent: '\t',
    comment: '//',
    content:
      '#include <stdio.h>\n\nstatic int clamp(int value, int low, int high)\n{\n\tif (value < low)\n\t\treturn low;\n\tif (value > high)\n\t\treturn high;\n\treturn value;\n}\n\nint main(void)\n{\n\tprintf("%d\\n", clamp(5, 0, 3));\n\treturn 0;\n}\n',
    target: { old: '\tif (value > high)\n\t\treturn high;', new: '\tif (value >= high)\n\t\treturn high;' },
    anchor: { old: '#include <stdio.h>', new: '#include <stdio.h>\n#include <stdlib.h>' },
    ambiguous: '\treturn ',
    invented: '\tif (low > high)\n\t\treturn -1;',
  },
];
