// The parts of the structls command results the extension reads. The full
// contracts are in docs/protocol.md; fields the
// extension does not show are left out.

/** An LSP position and range, as they arrive on the wire. */
export interface WirePosition { line: number; character: number }
/** A range in the negotiated position encoding (UTF-16 for VS Code). */
export interface WireRange { start: WirePosition; end: WirePosition }

/** One match of structls.astGrep. */
export interface AstGrepMatch { path: string; uri: string; range: WireRange; text: string }
/** The reply of structls.astGrep; skip/nextSkip count matches. */
export interface AstGrepResult {
  matches: AstGrepMatch[];
  matchCount: number;
  fileCount: number;
  filesSearched: number;
  nextSkip?: number;
  warnings?: string[];
  parseErrors?: { path?: string; message: string }[];
}

/** One matching line of structls.search. */
export interface SearchMatch { path: string; uri: string; range: WireRange; lineNumber: number; lineText: string }
/** The reply of structls.search; skip/nextSkip count files. */
export interface SearchResult {
  matches: SearchMatch[];
  matchCount: number;
  fileCount: number;
  totalFiles?: number;
  nextSkip?: number;
  warnings?: string[];
}

/** One replacement of a structls.astEdit preview. */
export interface Replacement { range: WireRange; before: string; after: string }
/** The reply of structls.astEdit: nothing is written yet; id names the preview. */
export interface EditPreview {
  id: string;
  files: { path: string; uri: string; replacements: Replacement[] }[];
  totalReplacements: number;
  filesTouched: number;
  warnings?: string[];
  parseErrors?: { path?: string; message: string }[];
}
/** The reply of structls.applyEdit. */
export interface ApplyResult { applied: boolean; failureReason?: string; filesChanged?: number; totalReplacements?: number }

/** One match of structls.xray (evaluator fields under fields). */
export interface XRayMatch {
  path: string;
  uri: string;
  lineNumber: number;
  lineContent: string;
  range?: WireRange;
  fields?: Record<string, unknown>;
}
/** The reply of structls.xray. */
export interface XRayResult {
  matches: XRayMatch[];
  evaluationErrors: { path: string; uri: string; errorType: string; errorMessage: string }[];
  candidates: number;
  filesEvaluated: number;
  partial: boolean;
  warnings?: string[];
}

/** One outline item of structls.outline (issue 12), members one level down. */
export interface OutlineItem {
  name: string;
  symbolType: string;
  range: WireRange;
  selectionRange?: WireRange;
  signature?: string;
  members?: OutlineItem[];
}
/** The reply of structls.outline. */
export interface OutlineResult { files: { path: string; uri: string; language?: string; items: OutlineItem[] }[] }
