// The extension's commands: each asks for its input, runs one structls
// command on the server, and shows the result in the Results view. The ids
// are structls.ui.*, never the server's own (structls.search, …):
// vscode-languageclient registers those for the server's executeCommandProvider.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, ResponseError, WorkDoneProgress } from 'vscode-languageclient/node';
import { astGrepPage, outlinePage, previewPage, searchPage, xrayPage } from './pages';
import { ResultPage, ResultsView, plural } from './results';
import * as wire from './wire';

/** RequestCancelled is the JSON-RPC error code of a cancelled request. */
const requestCancelled = -32800;

/** progressTitles names the commands that show a cancellable progress notification while they run. */
const progressTitles: Record<string, string> = {
  'structls.astGrep': 'Structural search',
  'structls.search': 'Regex search',
  'structls.astEdit': 'Preparing the rewrite preview',
  'structls.xray': 'X-Ray',
  'structls.outline': 'Outline',
};

/** progressDelayMs: a command that answers sooner shows no progress at all (the server waits 200 ms too). */
const progressDelayMs = 300;

/** Commands holds what the command handlers share: the client, the view and a pending rewrite. */
export class Commands {
  private pendingPreview?: string;
  /** The pending rewrite as "pattern → rewrite", for the view's title once it is applied. */
  private pendingTitle = '';
  private requests = 0;

  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly results: ResultsView,
  ) {}

  /** register adds every command to the extension's subscriptions. */
  register(context: vscode.ExtensionContext): void {
    const commands: [string, () => Promise<void>][] = [
      ['structls.ui.structuralSearch', () => this.structuralSearch()],
      ['structls.ui.regexSearch', () => this.regexSearch()],
      ['structls.ui.structuralReplace', () => this.structuralReplace()],
      ['structls.ui.xray', () => this.xray()],
      ['structls.ui.outline', () => this.outline()],
      ['structls.ui.applyPreview', () => this.applyPreview()],
      ['structls.ui.discardPreview', () => this.discardPreview()],
      ['structls.ui.loadMore', () => this.guard(() => this.results.loadMore())],
      ['structls.ui.clearResults', () => Promise.resolve(this.results.clear())],
    ];
    for (const [id, run] of commands) {
      context.subscriptions.push(vscode.commands.registerCommand(id, run));
    }
  }

  /**
   * run sends one structls command with its argument object and returns the
   * reply. A long command shows a progress notification with Cancel: the
   * request carries its own workDoneToken, so the server reports there
   * (vscode-languageclient would show a server-created progress in the
   * status bar, where it cannot be cancelled), and Cancel sends
   * $/cancelRequest.
   */
  private async run<T>(command: string, arg: object): Promise<T> {
    const client = this.client();
    if (!client) {
      throw new Error('the structls server is not running: see "structls: Show Output" for why');
    }
    const title = progressTitles[command];
    if (!title) {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] })) as T;
    }
    const workDoneToken = `structls-ui-${++this.requests}`;
    const cancel = new vscode.CancellationTokenSource();
    let shown: vscode.Progress<{ message?: string; increment?: number }> | undefined;
    let message: string | undefined;
    let percentage = 0;
    const progress = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
      if (value.kind === 'end') {
        return;
      }
      message = value.message ?? message;
      const increment = value.percentage !== undefined ? value.percentage - percentage : undefined;
      percentage = value.percentage ?? percentage;
      shown?.report({ message, increment });
    });
    const request = client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg], workDoneToken }, cancel.token);
    const timer = setTimeout(() => {
      const options = { location: vscode.ProgressLocation.Notification, title: `structls: ${title}`, cancellable: true };
      void vscode.window.withProgress(options, (report, userCancel) => {
        shown = report;
        report.report({ message, increment: percentage });
        userCancel.onCancellationRequested(() => cancel.cancel());
        return request.then(() => undefined, () => undefined);
      });
    }, progressDelayMs);
    try {
      return (await request) as T;
    } finally {
      clearTimeout(timer);
      progress.dispose();
      cancel.dispose();
    }
  }

  /**
   * guard runs work and shows a failure as the server's own message (not
   * "Request workspace/executeCommand failed"); a cancelled request is a
   * status-bar note, not an error.
   */
  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (err instanceof ResponseError && err.code === requestCancelled) {
        vscode.window.setStatusBarMessage('structls: cancelled', 5000);
        void vscode.window.showInformationMessage('structls: cancelled');
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      void vscode.window.showErrorMessage(`structls: ${message}`);
    }
  }

  private async structuralSearch(): Promise<void> {
    const pattern = await ask('Structural pattern (ast-grep syntax)', 'fmt.Println($$$ARGS)', selectedText());
    if (!pattern) {
      return;
    }
    await this.guard(async () => {
      const page = (skip: number): Promise<ResultPage> =>
        this.run<wire.AstGrepResult>('structls.astGrep', { pattern, skip }).then((r) => astGrepPage(r, page));
      await this.results.show(`Structural: ${pattern}`, await page(0));
    });
  }

  private async regexSearch(): Promise<void> {
    const pattern = await ask('Regular expression (RE2, as ripgrep)', 'TODO|FIXME', selectedText());
    if (!pattern) {
      return;
    }
    await this.guard(async () => {
      const page = (skip: number): Promise<ResultPage> =>
        this.run<wire.SearchResult>('structls.search', { pattern, skip }).then((r) => searchPage(r, page));
      await this.results.show(`Regex: ${pattern}`, await page(0));
    });
  }

  private async structuralReplace(): Promise<void> {
    const pattern = await ask('Structural pattern to replace', 'fmt.Println($$$ARGS)', selectedText());
    if (!pattern) {
      return;
    }
    const rewrite = await ask(`Rewrite for ${pattern} (metavariables expand, empty deletes)`, 'fmt.Fprintln(os.Stderr, $$$ARGS)');
    if (rewrite === undefined) {
      return;
    }
    await this.guard(async () => {
      const preview = await this.run<wire.EditPreview>('structls.astEdit', { ops: [{ pattern, rewrite }] });
      this.pendingTitle = `${pattern} → ${rewrite}`;
      await this.results.show(`Replace: ${this.pendingTitle}`, previewPage(preview));
      if (!preview.id) {
        void vscode.window.showInformationMessage(`structls: nothing to replace: ${pattern} matches nothing`);
        return;
      }
      await this.setPending(preview.id);
      const choice = await vscode.window.showInformationMessage(
        `structls: ${plural(preview.totalReplacements, 'replacement')} in ${plural(preview.filesTouched, 'file')}. Apply them (the Refactor Preview opens first)?`,
        'Apply…',
        'Discard',
      );
      if (choice === 'Apply…') {
        await this.applyPreview();
      } else if (choice === 'Discard') {
        await this.discardPreview();
      }
    });
  }

  /** applyPreview applies the pending rewrite through the server, which re-checks every file first. */
  private async applyPreview(): Promise<void> {
    const id = this.pendingPreview;
    if (!id) {
      void vscode.window.showInformationMessage('structls: no rewrite is waiting; run "structls: Structural Replace" first');
      return;
    }
    await this.guard(async () => {
      const result = await this.run<wire.ApplyResult>('structls.applyEdit', { id });
      if (result.applied) {
        await this.setPending(undefined);
        const done = `applied ${plural(result.totalReplacements ?? 0, 'replacement')} in ${plural(result.filesChanged ?? 0, 'file')} (Undo reverts them)`;
        this.results.settle(`Applied: ${this.pendingTitle}`, 'applied', `${done[0].toUpperCase()}${done.slice(1)}; the rows are what was rewritten.`);
        void vscode.window.showInformationMessage(`structls: ${done}`);
      } else {
        void vscode.window.showWarningMessage(
          `structls: the rewrite was not applied (${result.failureReason ?? 'declined'}); it is kept: apply it from the Results view, or discard it`,
        );
      }
    });
  }

  private async discardPreview(): Promise<void> {
    const id = this.pendingPreview;
    if (!id) {
      return;
    }
    await this.guard(async () => {
      await this.run('structls.discardEdit', { id });
      await this.setPending(undefined);
      this.results.clear();
    });
  }

  private async setPending(id: string | undefined): Promise<void> {
    this.pendingPreview = id;
    await vscode.commands.executeCommand('setContext', 'structls.previewPending', id !== undefined);
  }

  private async xray(): Promise<void> {
    const driver = await ask('X-Ray driver: a regex that picks the candidate files and hits', 'execute(Query|Update)');
    if (!driver) {
      return;
    }
    const evaluator = await pickEvaluator();
    if (evaluator === undefined) {
      return;
    }
    await this.guard(async () => {
      const result = await this.run<wire.XRayResult>('structls.xray', evaluator ? { driver, evaluator } : { driver });
      await this.results.show(`X-Ray: ${driver}`, xrayPage(result));
    });
  }

  private async outline(): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    // the file's URI: a relative path would be resolved against the first workspace folder only
    const target = active?.scheme === 'file' ? active.toString() : await ask('File or directory to outline (relative to the first folder)', 'src/');
    if (!target) {
      return;
    }
    const title = active?.scheme === 'file' ? vscode.workspace.asRelativePath(active) : target;
    await this.guard(async () => {
      const result = await this.run<wire.OutlineResult>('structls.outline', { paths: [target] });
      await this.results.show(`Outline: ${title}`, outlinePage(result));
    });
  }
}

async function ask(prompt: string, placeHolder: string, value?: string): Promise<string | undefined> {
  return vscode.window.showInputBox({ prompt, placeHolder, value, ignoreFocusOut: true });
}

function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  const text = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined;
  return text && text.length <= 2000 ? text : undefined;
}

/** pickEvaluator offers the workspace's .star files, inline code, or none; '' means none, undefined cancelled. */
async function pickEvaluator(): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles('**/*.star', '**/node_modules/**', 200);
  type Pick = vscode.QuickPickItem & { file?: vscode.Uri; inline?: boolean };
  const picks: Pick[] = [
    { label: 'No evaluator', description: 'list every driver hit' },
    { label: 'Inline code…', description: 'type a Starlark evaluator', inline: true },
    ...files.map((file): Pick => ({ label: vscode.workspace.asRelativePath(file), description: '.star evaluator', file })),
  ];
  const pick = await vscode.window.showQuickPick(picks, { title: 'X-Ray evaluator', placeHolder: 'run each candidate file through…', ignoreFocusOut: true });
  if (!pick) {
    return undefined;
  }
  if (pick.file) {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(pick.file));
  }
  if (pick.inline) {
    return ask('Starlark evaluator (a function body; return {"matches": [...]})', 'return {"matches": [{"line_number": p["line_number"]} for p in match_positions]}');
  }
  return '';
}
