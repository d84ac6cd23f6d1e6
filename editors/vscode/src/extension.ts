// The structls extension: starts `structls serve` as a language server and
// adds the search, replace, X-Ray and outline commands with their Results
// view. Rule diagnostics, quick fixes and code actions come through the
// protocol unchanged.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { Commands } from './commands';
import { ResultsView } from './results';
import { createClient, findServer, installHint } from './server';

let client: LanguageClient | undefined;

/** activate starts the server and registers the commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('structls');
  const results = new ResultsView();
  context.subscriptions.push(output, results);
  new Commands(() => client, results).register(context);
  context.subscriptions.push(
    vscode.commands.registerCommand('structls.ui.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('structls.ui.restartServer', () => restart(output)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('structls.path')) {
        void restart(output);
      }
    }),
  );
  await start(output);
}

/** deactivate stops the server (shutdown, then exit). */
export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

async function start(output: vscode.OutputChannel): Promise<void> {
  let binary: string;
  try {
    binary = findServer();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output.appendLine(message);
    const choice = await vscode.window.showErrorMessage(`structls: ${message}`, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'structls.path');
    }
    return;
  }
  output.appendLine(`starting ${binary} serve`);
  client = createClient(binary, output);
  try {
    await client.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    client = undefined;
    void vscode.window.showErrorMessage(`structls: the server ${binary} did not start: ${message}. ${installHint}`);
  }
}

async function restart(output: vscode.OutputChannel): Promise<void> {
  await deactivate();
  await start(output);
}
