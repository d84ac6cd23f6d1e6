// How each structls reply becomes a page of the Results view.
import * as vscode from 'vscode';
import { FileGroup, ResultEntry, ResultPage, firstLine, groupByFile, plural } from './results';
import * as wire from './wire';

/** issueText is a parse issue as a note: "path: message", or the message alone when it is about no file (the pattern itself). */
export function issueText(e: { path?: string; message: string }): string {
  return e.path ? `${e.path}: ${e.message}` : e.message;
}

/** astGrepPage shows one page of structls.astGrep; page(skip) fetches another. */
export function astGrepPage(r: wire.AstGrepResult, page: (skip: number) => Promise<ResultPage>): ResultPage {
  const next = r.nextSkip;
  const notes = [...(r.warnings ?? []), ...(r.parseErrors ?? []).map(issueText)];
  return {
    groups: groupByFile(r.matches, (m): ResultEntry => ({
      label: firstLine(m.text),
      description: `line ${m.range.start.line + 1}`,
      tooltip: m.text,
      uri: m.uri,
      range: m.range,
    })),
    notes,
    summary: `${plural(r.matchCount, 'match', 'matches')} in ${plural(r.fileCount, 'file')} (${r.filesSearched} searched)`,
    next: next ? () => page(next) : undefined,
  };
}

/** searchPage shows one page of structls.search; page(skip) fetches another. */
export function searchPage(r: wire.SearchResult, page: (skip: number) => Promise<ResultPage>): ResultPage {
  const next = r.nextSkip;
  return {
    groups: groupByFile(r.matches, (m): ResultEntry => ({
      label: firstLine(m.lineText),
      description: `line ${m.lineNumber}`,
      uri: m.uri,
      range: m.range,
    })),
    notes: r.warnings ?? [],
    summary: `${plural(r.totalFiles ?? r.fileCount, 'file')} match`,
    next: next ? () => page(next) : undefined,
  };
}

/** previewPage shows a rewrite preview: each replacement as before → after, its diff in the tooltip. */
export function previewPage(p: wire.EditPreview): ResultPage {
  const groups: FileGroup[] = p.files.map((f) => ({
    path: f.path,
    uri: f.uri,
    entries: f.replacements.map((r): ResultEntry => {
      const tooltip = new vscode.MarkdownString();
      tooltip.appendCodeblock(`- ${r.before.split('\n').join('\n- ')}\n+ ${r.after.split('\n').join('\n+ ')}`, 'diff');
      return { label: `${firstLine(r.before, 60)} → ${firstLine(r.after, 60)}`, description: `line ${r.range.start.line + 1}`, tooltip, uri: f.uri, range: r.range, icon: 'replace' };
    }),
  }));
  const notes = [...(p.warnings ?? []), ...(p.parseErrors ?? []).map(issueText)];
  return { groups, notes, summary: `${plural(p.totalReplacements, 'replacement')} in ${plural(p.filesTouched, 'file')}`, status: p.id ? 'not applied yet' : undefined };
}

/** xrayPage shows the matches of structls.xray with the evaluator's fields. */
export function xrayPage(r: wire.XRayResult): ResultPage {
  const groups = groupByFile(r.matches, (m): ResultEntry => {
    const fields = Object.entries(m.fields ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
    const line = { line: m.lineNumber - 1, character: 0 };
    return { label: firstLine(m.lineContent), description: `line ${m.lineNumber} ${fields}`.trim(), uri: m.uri, range: m.range ?? { start: line, end: line } };
  });
  const notes = [...(r.warnings ?? []), ...r.evaluationErrors.map((e) => `${e.path}: ${e.errorType}: ${e.errorMessage}`)];
  const partial = r.partial ? ' (partial)' : '';
  return { groups, notes, summary: `${plural(r.matches.length, 'match', 'matches')} in ${plural(groups.length, 'file')}; ${r.filesEvaluated} of ${r.candidates} candidates evaluated${partial}` };
}

/** outlinePage shows the outline of structls.outline, members under their items. */
export function outlinePage(r: wire.OutlineResult): ResultPage {
  const toEntry = (uri: string, item: wire.OutlineItem): ResultEntry => ({
    label: item.name,
    description: item.symbolType,
    tooltip: item.signature,
    uri,
    range: item.selectionRange ?? item.range,
    icon: 'symbol-' + (item.symbolType === 'function' || item.symbolType === 'method' ? 'method' : item.symbolType === 'type' ? 'class' : 'field'),
    children: (item.members ?? []).map((m) => toEntry(uri, m)),
  });
  const groups = r.files.map((f): FileGroup => ({ path: f.path, uri: f.uri, entries: f.items.map((i) => toEntry(f.uri, i)) }));
  const count = groups.reduce((n, g) => n + g.entries.length, 0);
  return { groups, notes: [], summary: `${plural(count, 'item')} in ${plural(groups.length, 'file')}` };
}
