// The "Results" tree view: one search or rewrite preview at a time, grouped
// by file (with counts), each entry a click away from its place in the
// editor, and a "Load more…" entry while the server has further pages.
import * as vscode from 'vscode';
import { WireRange } from './wire';

/** One entry under a file: a match, a replacement, an outline item, or a note. */
export interface ResultEntry {
  label: string;
  description?: string;
  tooltip?: string | vscode.MarkdownString;
  /** Where a click jumps to; absent for notes. */
  uri?: string;
  range?: WireRange;
  icon?: string;
  children?: ResultEntry[];
}

/** The entries of one file. */
export interface FileGroup {
  path: string;
  uri: string;
  entries: ResultEntry[];
}

/** One page of results as a command returns it. */
export interface ResultPage {
  groups: FileGroup[];
  /** Warnings and per-file errors, shown above the files. */
  notes: string[];
  /** The count shown in the view's message, e.g. "12 matches in 3 files". */
  summary: string;
  /** A word shown beside the view's title, e.g. "not applied yet". */
  status?: string;
  /** Fetches the next page, when the server said there is one. */
  next?: () => Promise<ResultPage>;
}

type Node =
  | { kind: 'file'; group: FileGroup }
  | { kind: 'entry'; entry: ResultEntry }
  | { kind: 'note'; text: string }
  | { kind: 'more' };

/** defaultTitle is the view's name in package.json, shown when it holds no results. */
const defaultTitle = 'Results';

/** ResultsView owns the tree view and the result set it shows. */
export class ResultsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Node>;
  private groups: FileGroup[] = [];
  private notes: string[] = [];
  private next?: () => Promise<ResultPage>;
  private pages = 0;
  /** What became of the rows (settle), e.g. "applied"; undefined while they are current or pending. */
  private settled?: string;
  /** The files (by URI) the person collapsed, one by one or with Collapse All. */
  private readonly collapsed = new Set<string>();
  /**
   * Counts the result sets shown: a file's tree item id includes it, so a new search starts with its files
   * expanded instead of as VS Code remembers the same id from the last one.
   */
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.view = vscode.window.createTreeView('structls.results', { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view.onDidCollapseElement(({ element }) => {
        if (element.kind === 'file') {
          this.collapsed.add(element.group.uri);
        }
      }),
      this.view.onDidExpandElement(({ element }) => {
        if (element.kind === 'file') {
          this.collapsed.delete(element.group.uri);
        }
      }),
    );
  }

  /** show replaces the results with a first page titled title, and reveals the view. */
  async show(title: string, page: ResultPage): Promise<void> {
    this.groups = [];
    this.notes = [];
    this.pages = 0;
    this.settled = undefined;
    this.collapsed.clear();
    this.generation++;
    this.view.title = title;
    this.view.description = page.status;
    this.add(page);
    await vscode.commands.executeCommand('structls.results.focus');
  }

  /**
   * loadMore appends the next page, if there is one. The rows shown stay as the person left them; a file
   * the page adds starts as the file above it is, so after Collapse All the new files come collapsed too.
   */
  async loadMore(): Promise<void> {
    if (this.next) {
      this.add(await this.next());
    }
  }

  /**
   * settle says what became of the results shown — a previewed rewrite applied, say: the view takes the new
   * title, word and message, each row says it, and no further page is offered.
   */
  settle(title: string, status: string, message: string): void {
    this.view.title = title;
    this.view.description = status;
    this.view.message = message;
    this.settled = status;
    this.next = undefined;
    this.changed.fire(undefined);
  }

  /** clear empties the view and gives it back its own title. */
  clear(): void {
    this.groups = [];
    this.notes = [];
    this.next = undefined;
    this.settled = undefined;
    this.collapsed.clear();
    this.view.title = defaultTitle;
    this.view.message = undefined;
    this.view.description = undefined;
    this.changed.fire(undefined);
  }

  private add(page: ResultPage): void {
    for (const group of page.groups) {
      const known = this.groups.find((g) => g.uri === group.uri);
      if (known) {
        known.entries.push(...group.entries);
        continue;
      }
      const above = this.groups[this.groups.length - 1];
      if (above && this.collapsed.has(above.uri)) {
        this.collapsed.add(group.uri);
      }
      this.groups.push({ ...group, entries: [...group.entries] });
    }
    this.notes.push(...page.notes.filter((n) => !this.notes.includes(n)));
    this.next = page.next;
    this.pages++;
    const shown = this.groups.reduce((n, g) => n + g.entries.length, 0);
    const paging = this.next || this.pages > 1 ? `; showing ${plural(shown, 'result')} in ${plural(this.groups.length, 'file')}` : '';
    this.view.message = page.summary + paging;
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      const roots: Node[] = this.notes.map((text) => ({ kind: 'note', text }));
      roots.push(...this.groups.map((group): Node => ({ kind: 'file', group })));
      if (this.next) {
        roots.push({ kind: 'more' });
      }
      return roots;
    }
    if (node.kind === 'file') {
      return node.group.entries.map((entry): Node => ({ kind: 'entry', entry }));
    }
    if (node.kind === 'entry') {
      return (node.entry.children ?? []).map((entry): Node => ({ kind: 'entry', entry }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'file': {
        const state = this.collapsed.has(node.group.uri) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded;
        const item = new vscode.TreeItem(vscode.Uri.parse(node.group.uri), state);
        item.label = node.group.path;
        item.description = `${node.group.entries.length}`;
        item.id = `file:${this.generation}:${node.group.uri}`;
        return item;
      }
      case 'entry': {
        const item = entryItem(node.entry);
        if (this.settled) {
          item.description = `${this.settled}${item.description ? ` · ${item.description}` : ''}`;
        }
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon('warning');
        item.tooltip = node.text;
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem('Load more…');
        item.iconPath = new vscode.ThemeIcon('fold-down');
        item.command = { command: 'structls.ui.loadMore', title: 'Load More Results' };
        return item;
      }
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
    this.view.dispose();
    this.changed.dispose();
  }
}

function entryItem(entry: ResultEntry): vscode.TreeItem {
  const state = entry.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
  const item = new vscode.TreeItem(entry.label, state);
  item.description = entry.description;
  item.tooltip = entry.tooltip;
  if (entry.icon) {
    item.iconPath = new vscode.ThemeIcon(entry.icon);
  }
  if (entry.uri && entry.range) {
    const options: vscode.TextDocumentShowOptions = { selection: toRange(entry.range), preserveFocus: false };
    item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.parse(entry.uri), options] };
  }
  return item;
}

/** toRange converts a wire range into a VS Code range. */
export function toRange(r: WireRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

/** plural counts n things: plural(1, 'file') is "1 file", plural(2, 'match', 'matches') "2 matches". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** firstLine shortens text to its first line, trimmed, with … when cut. */
export function firstLine(text: string, max = 120): string {
  const lines = text.trim().split('\n');
  let line = lines[0].trim();
  if (line.length > max) {
    line = line.slice(0, max);
  }
  return lines.length > 1 || line.length < lines[0].trim().length ? `${line} …` : line;
}

/** groupByFile collects entries under their files, in the order the server sent them. */
export function groupByFile<T extends { path: string; uri: string }>(items: T[], toEntry: (item: T) => ResultEntry): FileGroup[] {
  const groups: FileGroup[] = [];
  for (const item of items) {
    let group = groups.find((g) => g.uri === item.uri);
    if (!group) {
      group = { path: item.path, uri: item.uri, entries: [] };
      groups.push(group);
    }
    group.entries.push(toEntry(item));
  }
  return groups;
}
