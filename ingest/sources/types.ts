// A source yields items: one file of SEC data each, read on demand. The ingest runner
// classifies an item by its path (and, where needed, its content) and hands it to a parser.

export interface SourceItem {
  /** stable identity across runs, for idempotence and resume: the path below the source root, or the SEC URL path */
  key: string;
  /** the file name, e.g. CIK0000320193.json or 0001045810-26-000024.txt */
  name: string;
  read(): Promise<string>;
}

export interface Source {
  /** where the items come from, for the run summary: a folder or the SEC */
  describe(): string;
  items(): AsyncIterable<SourceItem>;
  /**
   * The source yields its items in an order the runner may load them in (who a document belongs
   * to before the document), so the runner streams them instead of listing and sorting them all
   * first: a source too large to hold in memory at once (a day of the whole of EDGAR) says so.
   */
  inLoadOrder?: boolean;
  /** how many items a streamed source will yield, as far as it knows before it starts */
  size?: number;
}
