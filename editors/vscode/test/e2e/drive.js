// The VS Code end-to-end test: Playwright drives code-server (VS Code 1.100.3)
// in Debian's headless Chromium, with the packaged structls extension installed,
// through the command palette as a person would. Run by scripts/editors-vscode-e2e.sh:
//   CS_URL=http://127.0.0.1:PORT REPO_ROOT=… WS_PARENT=dir SHOT_DIR=dir node test/e2e/drive.js
// Exit code 0 = every check passed; a skipped check prints SKIP and its reason.
// E2E_ONLY=name,name runs only those tests (when debugging one; later tests may rely on earlier ones).
'use strict';
const { chromium } = require('playwright-core');
const fs = require('node:fs');
const path = require('node:path');
const { makeWorkspace } = require('./workspace');

const CS_URL = process.env.CS_URL;
const WS = path.join(process.env.WS_PARENT, 'ws');
const SHOT_DIR = process.env.SHOT_DIR;
fs.rmSync(SHOT_DIR, { recursive: true, force: true });
fs.mkdirSync(SHOT_DIR, { recursive: true });
makeWorkspace(WS, process.env.REPO_ROOT);
const mainGo = path.join(WS, 'main.go');
const mainOnDisk = fs.readFileSync(mainGo, 'utf8');

const results = [];
const check = (cond, what) => { results.push(!!cond); console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`); };
const skip = (what, why) => console.log(`SKIP ${what}: ${why}`);

/** The visible editor text, with VS Code's non-breaking spaces made plain. */
const editorText = (page) => page.evaluate(() => document.querySelector('.monaco-editor .view-lines')?.innerText.replace(/\u00a0/g, ' ') ?? '');
const waitEditor = (page, pred, arg, timeout = 20000) =>
  page.waitForFunction(([src, a]) => {
    const t = document.querySelector('.monaco-editor .view-lines')?.innerText.replace(/\u00a0/g, ' ') ?? '';
    return new Function('t', 'a', src)(t, a);
  }, [pred, arg], { timeout });
/** waitSidebar waits until the side bar (the Results view) shows every one of texts. */
const waitSidebar = (page, texts, timeout = 30000) =>
  page.waitForFunction((ts) => {
    const t = (document.querySelector('.part.sidebar')?.innerText ?? '').replace(/\u00a0/g, ' ');
    return ts.every((x) => t.includes(x));
  }, [].concat(texts), { timeout });
/** resultRows lists the rows of the Results tree from the top: label, depth (1: a file) and expanded (true, false, or null for a leaf). */
const resultRows = (page) => page.evaluate(() => [...document.querySelectorAll('.part.sidebar .monaco-list-row')]
  .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
  .map((r) => ({
    label: (r.querySelector('.label-name')?.innerText ?? r.innerText.split('\n')[0]).replace(/\u00a0/g, ' ').trim(),
    level: Number(r.getAttribute('aria-level')),
    expanded: r.hasAttribute('aria-expanded') ? r.getAttribute('aria-expanded') === 'true' : null,
  })));
/** describeRows writes rows as "p01.go+ p02.go- …": + expanded, - collapsed. */
const describeRows = (rows) => rows.filter((r) => r.level === 1).map((r) => `${r.label.replace(/^pages\//, '')}${r.expanded ? '+' : r.expanded === false ? '-' : ''}`).join(' ');
const waitToast = (page, text, timeout = 30000) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.notifications-toasts .notification-list-item-message')]
    .some((e) => e.innerText.includes(t)), text, { timeout });
const toastTexts = (page) => page.evaluate(() => [...document.querySelectorAll('.notifications-toasts .notification-list-item-message')].map((e) => e.innerText));
const shot = (page, name) => page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`) });
/** shotTree takes the window down to the last row of the side bar's tree (in a window made tall to show it all). */
async function shotTree(page, name) {
  await page.mouse.move(page.viewportSize().width / 2, 10); // no hover tooltip over the rows
  const bottom = await page.evaluate(() => Math.max(...[...document.querySelectorAll('.part.sidebar .monaco-list-row')].map((r) => r.getBoundingClientRect().bottom)));
  await page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`), clip: { x: 0, y: 0, width: page.viewportSize().width, height: Math.ceil(bottom) + 24 } });
}

async function clearToasts(page) {
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.querySelectorAll('.notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close')
    .forEach((b) => b.click()));
}

/** runCommand runs a command from the F1 palette by its title. */
async function runCommand(page, title) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`, { timeout: 30000 });
  await page.keyboard.press('Enter');
}

/** answer types value into the input box or quick pick that shows prompt, once it has focus. */
async function answer(page, prompt, value) {
  // the palette's widget is reused: wait until the one showing *this* prompt holds focus
  await page.waitForFunction((p) => {
    const w = document.querySelector('.quick-input-widget');
    const input = w?.querySelector('input');
    const shown = w && (w.innerText.includes(p) || (input?.placeholder ?? '').includes(p));
    return shown && w.style.display !== 'none' && w.contains(document.activeElement);
  }, prompt, { timeout: 30000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

async function openFile(page, name, marker) {
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
  await page.keyboard.type(name);
  await page.waitForSelector('.quick-input-list .monaco-list-row');
  await page.keyboard.press('Enter');
  await waitEditor(page, 'return t.includes(a)', marker);
}

const tests = {
  async structuralSearch(page) {
    await runCommand(page, 'structls: Structural Search');
    await answer(page, 'Structural pattern', 'fmt.Println($$$ARGS)');
    await waitSidebar(page, ['2 matches in 1 file', 'main.go', 'fmt.Println("error:", err)', 'fmt.Println(name)']);
    check(true, 'Structural Search: the Results tree shows main.go with its 2 fmt.Println calls');
    await shot(page, 'vscode-structural-search');
    // a click on a match jumps to it: the status bar shows the cursor on line 18
    await page.locator('.part.sidebar .monaco-list-row', { hasText: 'fmt.Println(name)' }).first().click();
    await page.waitForFunction(() => /Ln 18, Col 2/.test(document.querySelector('.statusbar')?.innerText ?? ''), null, { timeout: 10000 });
    check(true, 'a click on a match puts the cursor on it (Ln 18, Col 2)');
  },

  async unsavedBuffer(page) {
    // the cursor is on line 18 (fmt.Println(name)); type a new call above it without saving
    await page.keyboard.press('Home');
    await page.keyboard.type('fmt.Println("unsaved")\n');
    await waitEditor(page, 'return t.includes(a)', 'fmt.Println("unsaved")');
    await runCommand(page, 'structls: Structural Search');
    await answer(page, 'Structural pattern', 'fmt.Println($$$ARGS)');
    await waitSidebar(page, ['3 matches in 1 file', 'fmt.Println("unsaved")']);
    check(true, 'typed without saving, searched again: the unsaved call is found');
    check(fs.readFileSync(mainGo, 'utf8') === mainOnDisk, 'main.go on disk is untouched');
    await shot(page, 'vscode-unsaved-search');
  },

  async showOutput(page) {
    await runCommand(page, 'structls: Show Output');
    const output = () => page.evaluate(() => (document.querySelector('.part.panel .monaco-editor .view-lines')?.innerText ?? '').replace(/\u00a0/g, ' '));
    await page.waitForFunction(() => (document.querySelector('.part.panel')?.innerText ?? '').includes('serve'), null, { timeout: 30000 });
    const text = await output();
    check(text.includes('starting') && text.includes('structls serve'), '"Show Output" shows the structls channel: ' + text.split('\n')[0]);
    // VS Code sends the whole structls section, structls.path included; the server must not be told about it
    const warning = text.split('\n').find((line) => line.includes('unknown setting'));
    check(!warning, `the server warned about no setting (the extension keeps structls.path to itself)${warning ? `: ${warning}` : ''}`);
    await page.keyboard.press('Control+J'); // hide the panel again
    await page.click('.monaco-editor .view-lines');
  },

  async noteWithoutPath(page) {
    // the pattern does not parse as TypeScript (web/app.ts): a parse issue about the pattern, of no file
    await runCommand(page, 'structls: Structural Search');
    await answer(page, 'Structural pattern', 'if err != nil { return $$$ }');
    await waitSidebar(page, ['the pattern does not parse as typescript']);
    const notes = (await resultRows(page)).map((r) => r.label).filter((l) => l.includes('does not parse as typescript'));
    check(notes.length === 1 && notes[0].startsWith('the pattern does not parse'), `a note about no file shows without a leading colon: ${JSON.stringify(notes)}`);
  },

  async regexSearchAndLoadMore(page) {
    await runCommand(page, 'structls: Regex Search');
    await answer(page, 'Regular expression', 'PAGEMARK');
    await waitSidebar(page, ['25 files match', 'showing 20 results in 20 files', 'pages/p01.go']);
    check(true, 'Regex Search: the first page shows 20 of the 25 files');
    // the tree renders only the rows in view: a window tall enough shows all of them
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: viewport.width, height: 2600 });
    try {
      // the person collapses one file of the first page, then loads the next
      await page.locator('.part.sidebar .monaco-list-row', { hasText: 'pages/p02.go' }).first().locator('.monaco-tl-twistie').click();
      await page.waitForFunction(() => !(document.querySelector('.part.sidebar')?.innerText ?? '').includes('// PAGEMARK 02'), null, { timeout: 10000 });
      const before = await resultRows(page);
      console.log(`     before Load more: ${describeRows(before)}`);
      await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Load more' }).first().click();
      await waitSidebar(page, ['showing 25 results in 25 files', 'pages/p25.go']);
      await page.waitForTimeout(500); // let the tree settle: a late refresh must not change it
      const after = await resultRows(page);
      console.log(`     after Load more:  ${describeRows(after)}`);
      const files = after.filter((r) => r.level === 1).map((r) => r.label);
      const want = Array.from({ length: 25 }, (_, i) => `pages/p${String(i + 1).padStart(2, '0')}.go`);
      check(JSON.stringify(files) === JSON.stringify(want), `"Load more…" appended the last 5 files after the first 20, in order, and went away: ${files.join(' ')}`);
      const kept = before.filter((r) => r.expanded !== null).every((r) => after.find((a) => a.label === r.label)?.expanded === r.expanded);
      check(kept && after.find((r) => r.label === 'pages/p02.go')?.expanded === false,
        'the first page kept its state: p02.go still collapsed, the other 19 files still expanded');
      const added = after.filter((r) => r.level === 1 && want.slice(20).includes(r.label));
      check(added.length === 5 && added.every((r) => r.expanded === true && after[after.indexOf(r) + 1]?.label.includes(`PAGEMARK ${r.label.slice(7, 9)}`)),
        'the 5 new files came expanded like the rest, each over its match');
      await shotTree(page, 'vscode-load-more');

      // a new search starts with every file expanded; after Collapse All, the next page comes collapsed too
      await runCommand(page, 'structls: Regex Search');
      await answer(page, 'Regular expression', 'PAGEMARK');
      await waitSidebar(page, ['showing 20 results in 20 files', 'Load more']);
      await page.waitForTimeout(500);
      const fresh = (await resultRows(page)).filter((r) => r.level === 1 && r.expanded !== null);
      check(fresh.length === 20 && fresh.every((r) => r.expanded), `the same search again shows its 20 files expanded, p02.go too: ${describeRows(fresh)}`);
      await page.locator('.part.sidebar .codicon-collapse-all').first().click(); // the view's "Collapse All"
      await page.waitForFunction(() => !(document.querySelector('.part.sidebar')?.innerText ?? '').includes('// PAGEMARK'), null, { timeout: 10000 });
      await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Load more' }).first().click();
      await waitSidebar(page, ['showing 25 results in 25 files', 'pages/p25.go']);
      await page.waitForTimeout(500);
      const collapsed = await resultRows(page);
      console.log(`     Collapse All, then Load more: ${describeRows(collapsed)}`);
      const allFiles = collapsed.filter((r) => r.level === 1);
      check(allFiles.length === 25 && allFiles.every((r) => r.expanded === false),
        'after Collapse All, "Load more…" keeps the 20 files collapsed and adds the 5 new ones collapsed too');
      await shotTree(page, 'vscode-load-more-collapsed');
    } finally {
      await page.setViewportSize(viewport);
    }
  },

  async serverErrorShown(page) {
    await clearToasts(page);
    await runCommand(page, 'structls: Structural Search');
    await answer(page, 'Structural pattern', 'fmt.Println($$$ARGS)');
    await waitSidebar(page, ['matches']);
    await runCommand(page, 'structls: X-Ray');
    await answer(page, 'X-Ray driver', 'TODO');
    await answer(page, 'X-Ray evaluator', 'Inline code');
    await answer(page, 'Starlark evaluator', 'return {"matches": undefined_name}');
    await waitToast(page, 'structls: ');
    const toasts = (await toastTexts(page)).join('\n');
    check(/undefined_name/.test(toasts) && !/Request workspace\/executeCommand failed/.test(toasts),
      `a refused command shows the server's own message: ${toasts.split('\n').find((t) => t.includes('structls:'))}`);
    await clearToasts(page);
  },

  async xrayFromStarFile(page) {
    await runCommand(page, 'structls: X-Ray');
    await answer(page, 'X-Ray driver', 'TODO');
    await answer(page, 'X-Ray evaluator', 'xray/todo.star');
    await waitSidebar(page, ['candidates evaluated', 'util/strings.go', 'todo="// TODO: support more']);
    check(true, 'X-Ray with xray/todo.star lists the TODO comments with their fields');
    await shot(page, 'vscode-xray');
  },

  async structuralReplace(page) {
    await clearToasts(page);
    await runCommand(page, 'structls: Structural Replace');
    await answer(page, 'Structural pattern to replace', 'fmt.Println($$$ARGS)');
    await answer(page, 'Rewrite for', 'fmt.Fprintln(os.Stderr, $$$ARGS)');
    await waitSidebar(page, ['3 replacements in 1 file', 'fmt.Println(name) → fmt.Fprintln(os.Stderr, name)']);
    check(true, 'the Results tree shows each replacement before → after');
    const applyButton = page.locator('.notifications-toasts .monaco-button', { hasText: 'Apply' }).first();
    await applyButton.waitFor({ timeout: 30000 });
    await shot(page, 'vscode-replace-preview');
    check(!(await editorText(page)).includes('Fprintln'), 'nothing is applied before confirmation');
    await applyButton.click();
    // confirmEdits "always": the server's edit carries needsConfirmation, so the Refactor Preview opens, unchecked
    const refactorApply = page.locator('.bulk-edit-panel .monaco-button', { hasText: 'Apply' }).first();
    await refactorApply.waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    check(!(await editorText(page)).includes('Fprintln'), 'the Refactor Preview is open and nothing is applied yet');
    await page.locator('.bulk-edit-panel .monaco-list-row', { hasText: 'main.go' }).first()
      .locator('input[type=checkbox], .monaco-custom-toggle, .codicon-check').first().click();
    await page.waitForTimeout(300);
    await shot(page, 'vscode-refactor-preview');
    await refactorApply.click();
    await waitToast(page, 'structls: applied 3 replacements in 1 file');
    await waitEditor(page, 'return (t.match(/Fprintln\\(os.Stderr, /g) || []).length === 3', null);
    check(true, 'Refactor Preview → Apply: the buffer has the 3 rewritten calls');
    check(fs.readFileSync(mainGo, 'utf8') === mainOnDisk, 'the rewrite went into the buffer; the disk waits for a save');
    await page.waitForFunction(() => {
      const t = (document.querySelector('.part.sidebar')?.innerText ?? '').toLowerCase();
      return t.includes('applied: fmt.println') && !t.includes('replace: fmt.println') && t.includes('applied 3 replacements in 1 file')
        && t.includes('applied · line');
    }, null, { timeout: 20000 });
    check(true, 'after Apply the view is titled "Applied: …", says what was applied, and marks each row applied');
    await shot(page, 'vscode-replace-applied');
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+Z');
    await waitEditor(page, 'return !t.includes("Fprintln") && t.includes("fmt.Println(\\"unsaved\\")")', null);
    check(true, 'Ctrl+Z restores the buffer as it was before the rewrite');
  },

  async replaceDeclined(page) {
    await clearToasts(page);
    await runCommand(page, 'structls: Structural Replace');
    await answer(page, 'Structural pattern to replace', 'os.Exit($CODE)');
    await answer(page, 'Rewrite for', 'panic($CODE)');
    await waitSidebar(page, ['1 replacement in 1 file', 'os.Exit(1) → panic(1)']);
    await page.locator('.notifications-toasts .monaco-button', { hasText: 'Apply' }).first().click();
    const discard = page.locator('.bulk-edit-panel .monaco-button', { hasText: 'Discard' }).first();
    await discard.waitFor({ timeout: 30000 });
    await discard.click();
    await waitToast(page, 'the rewrite was not applied');
    check(!(await editorText(page)).includes('panic('), 'Discard in the Refactor Preview: nothing applied, and the extension says the rewrite is kept');
    await clearToasts(page);
    await runCommand(page, 'structls: Discard the Rewrite');
    await page.waitForFunction(() => {
      const t = (document.querySelector('.part.sidebar')?.innerText ?? '').toLowerCase();
      return !t.includes('panic(1)') && !t.includes('replace: os.exit');
    }, null, { timeout: 20000 });
    check(true, '"Discard the Rewrite" forgets the kept preview, clears the view and gives it back its title');
  },

  async ruleDiagnostics(page) {
    if (!process.env.STRUCTLS_HAS_RULES) {
      skip('rule diagnostic + quick fix', 'waits for the rules of issue 11 (structls scan, live diagnostics, quick fixes: branches i11-rules, i11-diag)');
      return;
    }
    await page.click('.monaco-editor .view-lines');
    await page.waitForSelector('.monaco-editor .squiggly-warning', { timeout: 30000 });
    check(true, 'the no-println rule shows a warning squiggle in main.go');
    // the cursor into fmt.Println("unsaved"), typed earlier and never saved (in the browser Ctrl+G is not Go to Line)
    await page.locator('.monaco-editor .view-line', { hasText: 'fmt.Println("unsaved")' }).first().click();
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'no-println' }).first();
    await fix.waitFor({ timeout: 15000 });
    await shot(page, 'vscode-quick-fix');
    await page.keyboard.press('Enter'); // the first action is focused; the mouse is intercepted by the hover layer
    // with confirmEdits "always" (the extension's default) the server may annotate the fix for confirmation too
    const fixed = waitEditor(page, 'return t.includes(a)', 'fmt.Fprintln(os.Stderr, "unsaved")').then(() => 'editor', () => 'timeout');
    const preview = page.locator('.bulk-edit-panel .monaco-button', { hasText: 'Apply' }).first();
    const previewed = preview.waitFor({ timeout: 20000 }).then(() => 'preview', () => 'timeout');
    if (await Promise.race([fixed, previewed]) === 'preview') {
      console.log('note the quick fix opened the Refactor Preview (its edit carries needsConfirmation)');
      await page.locator('.bulk-edit-panel .monaco-list-row', { hasText: 'main.go' }).first()
        .locator('input[type=checkbox], .monaco-custom-toggle, .codicon-check').first().click();
      await preview.click();
    }
    check(await fixed === 'editor', 'the quick fix rewrote the call in the unsaved buffer');
  },

  async outline(page) {
    if (!process.env.STRUCTLS_HAS_OUTLINE) {
      skip('structls: Outline', 'waits for structls.outline (issue 12, branch i12-outline)');
      return;
    }
    await clearToasts(page);
    await page.click('.monaco-editor .view-lines');
    await runCommand(page, 'structls: Outline');
    await waitSidebar(page, ['in 1 file', 'main.go', 'function']);
    check(true, 'Outline lists the symbols of main.go');
  },

  async cancelLongSearch(page) {
    await clearToasts(page);
    await runCommand(page, 'structls: X-Ray');
    await answer(page, 'X-Ray driver', 'package');
    await answer(page, 'X-Ray evaluator', 'Inline code');
    // each candidate file spins until its step budget runs out: a long search
    await answer(page, 'Starlark evaluator', 'while True: pass');
    const cancel = page.locator('.notifications-toasts .monaco-button', { hasText: 'Cancel' }).first();
    await cancel.waitFor({ timeout: 30000 });
    console.log(`     as Cancel appears the notification reads: ${JSON.stringify((await toastTexts(page)).join(' | '))}`);
    // the picture shows progress: once the notification counts 3 files done and its bar has moved
    const progress = await page.waitForFunction(() => {
      // the bar is the toast's, below its message row
      const toast = [...document.querySelectorAll('.notifications-toasts .notification-toast')].find((e) => e.innerText.includes('X-Ray'));
      const count = /(\d+)\/(\d+) files/.exec(toast?.innerText ?? '');
      const bar = toast?.querySelector('.monaco-progress-container.discrete .progress-bit');
      return count && Number(count[1]) >= 3 && bar && parseFloat(bar.style.width) > 0 ? `"${count[0]}", the bar at ${bar.style.width}` : false;
    }, null, { timeout: 60000 });
    check(true, `the progress notification counts the files evaluated and fills its bar: ${await progress.jsonValue()}`);
    await shot(page, 'vscode-progress');
    const t0 = Date.now();
    await cancel.click();
    await waitToast(page, 'structls: cancelled');
    check(true, `Cancel on the progress notification stopped the X-Ray search (${Date.now() - t0} ms to the "cancelled" note)`);
  },

  // Not a check: a picture of the Neovim plugin for the README, taken in a
  // real terminal (VS Code's, xterm.js) running the host's Neovim.
  async neovimScreenshots(page) {
    if (!process.env.NVIM_RTP) {
      skip('Neovim screenshots', 'no nvim on this machine');
      return;
    }
    await clearToasts(page);
    await page.keyboard.press('Control+`');
    await page.waitForSelector('.terminal-wrapper .xterm', { timeout: 30000 });
    await runCommand(page, 'View: Toggle Maximized Panel');
    await page.waitForTimeout(1500);
    await page.click('.terminal-wrapper .xterm');
    const setup = `lua require("structls").setup{cmd={"${process.env.STRUCTLS_BIN}","serve"}}`;
    await page.keyboard.type(`cd ${WS} && clear && nvim -u NONE --cmd 'set rtp^=${process.env.NVIM_RTP}' --cmd 'runtime plugin/structls.lua' `
      + `--cmd 'filetype on | syntax on | set number laststatus=2' -c '${setup}' util/strings.go\n`);
    await page.waitForTimeout(3000);
    await page.keyboard.type(':StructSearch return $$$R\n');
    await page.waitForTimeout(3000);
    await page.locator('.part.panel').screenshot({ path: path.join(SHOT_DIR, 'nvim-search.png') });
    await page.keyboard.type(':cclose | StructReplace strings.ToUpper($S) => strings.ToTitle($S)\n');
    await page.waitForTimeout(3000);
    await page.locator('.part.panel').screenshot({ path: path.join(SHOT_DIR, 'nvim-replace.png') });
    await page.keyboard.press('Escape');
    await page.keyboard.type(':qa!\n');
    console.log('shot nvim-search.png, nvim-replace.png');
  },
};

(async () => {
  const t0 = Date.now();
  const profile = fs.mkdtempSync(path.join(process.env.WS_PARENT, 'chromium-'));
  // Playwright refuses --user-data-dir in args; a persistent context on a fresh directory is the same
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 860 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  try {
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}`, { waitUntil: 'domcontentloaded', timeout: 120000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 90000 });
    check(true, `workbench loaded in ${Date.now() - t0} ms`);
    await page.click('.monaco-workbench .part.editor');
    await openFile(page, 'main.go', 'func main');
    const only = process.env.E2E_ONLY ? process.env.E2E_ONLY.split(',') : undefined;
    for (const [name, test] of Object.entries(tests)) {
      if (only && !only.includes(name)) {
        continue;
      }
      try {
        await test(page);
      } catch (e) {
        check(false, `${name}: ${e.message.split('\n')[0]}`);
        await shot(page, `vscode-failure-${name}`).catch(() => {});
        await page.keyboard.press('Escape').catch(() => {});
      }
    }
  } catch (e) {
    check(false, `setup: ${e.message.split('\n')[0]}`);
    await shot(page, 'vscode-failure-setup').catch(() => {});
  } finally {
    await browser.close();
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed (${Date.now() - t0} ms)`);
  process.exit(failed ? 1 : 0);
})();
