// Builds the workspace the VS Code end-to-end test opens: the demo workspace
// of `structls demo` (cmd/structls/demo.txtar, so both show the same files),
// plus 25 small files for paging ("Load more…"), an X-Ray evaluator, and an
// ast-grep rule set for the diagnostics test.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** parseTxtar returns the files of a txtar archive as [name, content] pairs. */
function parseTxtar(text) {
  const files = [];
  let current;
  for (const line of text.split('\n')) {
    const m = /^-- (.+) --$/.exec(line);
    if (m) {
      current = [m[1], []];
      files.push(current);
    } else if (current) {
      current[1].push(line);
    }
  }
  return files.map(([name, lines]) => [name, lines.join('\n').replace(/\n?$/, '\n')]);
}

/** makeWorkspace writes the test workspace into dir. */
function makeWorkspace(dir, repoRoot) {
  const write = (name, content) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  };
  for (const [name, content] of parseTxtar(fs.readFileSync(path.join(repoRoot, 'cmd/structls/demo.txtar'), 'utf8'))) {
    write(name, content);
  }
  for (let i = 1; i <= 25; i++) {
    const n = String(i).padStart(2, '0');
    write(`pages/p${n}.go`, `package pages\n\n// PAGEMARK ${n}\nvar V${n} = ${i}\n`);
  }
  write('xray/todo.star', [
    'matches = []',
    'for c in node.descendants_of_type("comment"):',
    '    if "TODO" in c.text:',
    '        matches.append({"line_number": c.start_point[0] + 1, "todo": c.text[:40]})',
    'return {"matches": matches, "value": None}',
    '',
  ].join('\n'));
  write('sgconfig.yml', 'ruleDirs:\n  - rules\n');
  write('rules/no-println.yml', [
    'id: no-println',
    'language: go',
    'severity: warning',
    'message: print to stderr with fmt.Fprintln(os.Stderr, …)',
    'rule:',
    '  pattern:',
    '    context: func t() { fmt.Println($$$ARGS) }',
    '    selector: call_expression',
    'fix: fmt.Fprintln(os.Stderr, $$$ARGS)',
    '',
  ].join('\n'));
}

module.exports = { parseTxtar, makeWorkspace };
