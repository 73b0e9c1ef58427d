// Reading an SEC nightly archive (companyfacts.zip, submissions.zip) one member at a time: the
// central directory gives every member's name and size up front (for progress), and only the
// member being read is ever held in memory, never the archive.
import yauzl from 'yauzl';

export interface ArchiveMember {
  /** the member's file name, e.g. CIK0000320193.json */
  name: string;
  /** uncompressed bytes */
  size: number;
  read(): Promise<Buffer>;
}

export interface Archive {
  path: string;
  /** every member, in the archive's order */
  members: { name: string; size: number }[];
  /** the members one after the other; the next is opened only once the previous one was read */
  each(): AsyncIterable<ArchiveMember>;
  close(): void;
}

export async function openArchive(path: string): Promise<Archive> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  return {
    path,
    members: entries.map((e) => ({ name: baseName(e.fileName), size: e.uncompressedSize })),
    async *each() {
      for (const entry of entries) {
        yield { name: baseName(entry.fileName), size: entry.uncompressedSize, read: () => readEntry(zip, entry) };
      }
    },
    close: () => zip.close(),
  };
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function baseName(fileName: string): string {
  return fileName.slice(fileName.lastIndexOf('/') + 1);
}
