// Finding the structls binary and starting it as a language server.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

/** installHint is what every "cannot start" message tells the person to do. */
export const installHint =
  'Install it by running `go install ./cmd/structls` in a checkout of the structls repository (Go 1.26 with cgo) and make sure $(go env GOPATH)/bin is on PATH, or set structls.path to the binary.';

/** clientOnlySettings are the extension's own keys of the structls section; the server does not know them. */
const clientOnlySettings = ['path'];

/**
 * findServer returns the binary to run: structls.path when set (~ and
 * ${workspaceFolder} expanded), else structls on PATH. It throws an error
 * that says how to install or configure it.
 */
export function findServer(): string {
  const configured = vscode.workspace.getConfiguration('structls').get<string>('path', '').trim();
  if (configured) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const expanded = configured.replace(/^~(?=$|\/)/, os.homedir()).replace(/\$\{workspaceFolder\}/g, folder);
    if (!isExecutable(expanded)) {
      throw new Error(`structls.path is set to "${configured}", which is not an executable file. Fix the setting, or clear it to use structls from PATH.`);
    }
    return expanded;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, process.platform === 'win32' ? 'structls.exe' : 'structls');
    if (dir && isExecutable(candidate)) {
      return candidate;
    }
  }
  throw new Error(`The structls binary was not found on PATH. ${installHint}`);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * createClient makes the language client for binary: `structls serve` over
 * stdio (the client appends --stdio), every file and unsaved buffer synced
 * (structls searches all of them), and the configuration section sent
 * without the extension's own keys.
 */
export function createClient(binary: string, output: vscode.OutputChannel): LanguageClient {
  const serverOptions: ServerOptions = { command: binary, args: ['serve'], transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    outputChannel: output,
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return result.map((section: unknown, i): unknown => (params.items[i]?.section === 'structls' ? serverSettings(section) : section));
        },
      },
    },
  };
  return new LanguageClient('structls', 'structls', serverOptions, clientOptions);
}

/** serverSettings copies the structls section without the keys only the extension reads. */
function serverSettings(section: unknown): unknown {
  if (section === null || typeof section !== 'object') {
    return section;
  }
  const copy: Record<string, unknown> = { ...(section as Record<string, unknown>) };
  for (const key of clientOnlySettings) {
    delete copy[key];
  }
  return copy;
}
