// The embedded database has one owner. Two processes that open the same PGlite folder overwrite
// each other's writes, so the process that opens it first holds `<state>/owner.lock` (created
// exclusively; it names the owner's PID, role and port) for as long as it runs. A server that
// owns the folder also answers operator commands on `<state>/owner.sock` (server/ownerChannel.ts),
// so the CLI reaches the database through it; with no server, the CLI owns the folder itself
// while it works. A lock whose process is gone (kill -9) is stale and taken over.
import { connect } from 'node:net';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface OwnerInfo {
  pid: number;
  role: 'server' | 'cli';
  /** the server's HTTP port, once it listens */
  port: number | null;
  startedAt: string;
}

export const lockFile = (stateDir: string) => path.join(stateDir, 'owner.lock');
export const channelSocket = (stateDir: string) => path.join(stateDir, 'owner.sock');

export interface Ownership {
  /** records the port the owner serves on, for whoever finds the lock */
  publish(update: Partial<Pick<OwnerInfo, 'port'>>): Promise<void>;
  release(): Promise<void>;
}

export type Claim = { owned: true; ownership: Ownership } | { owned: false; owner: OwnerInfo };

export async function claimStateFolder(stateDir: string, role: OwnerInfo['role']): Promise<Claim> {
  await mkdir(stateDir, { recursive: true });
  const file = lockFile(stateDir);
  let info: OwnerInfo = { pid: process.pid, role, port: null, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(info));
      await handle.close();
      let released = false;
      return {
        owned: true,
        ownership: {
          async publish(update) {
            info = { ...info, ...update };
            await writeFile(file, JSON.stringify(info), { mode: 0o600 });
          },
          async release() {
            if (released) return;
            released = true;
            await unlink(file).catch(() => {});
          },
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(file);
    if (owner && (await isAlive(stateDir, owner))) return { owned: false, owner };
    // Stale: move it aside (only one of several claimants succeeds), then claim afresh.
    await rename(file, `${file}.stale-${process.pid}`).then(() => unlink(`${file}.stale-${process.pid}`), () => {});
  }
  throw new Error(`could not take ${file}: it keeps changing hands`);
}

async function readOwner(file: string): Promise<OwnerInfo | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as OwnerInfo;
  } catch {
    return null; // gone, or half-written by an owner that died while writing it
  }
}

/**
 * The owner's process exists, and a server owner still answers on its channel: a PID alone can
 * be reused after a crash, the channel cannot.
 */
async function isAlive(stateDir: string, owner: OwnerInfo): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (owner.role !== 'server' || owner.port === null) return true; // a CLI, or a server still starting
  return answers(channelSocket(stateDir));
}

export function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export function describeOwner(owner: OwnerInfo): string {
  return owner.role === 'server'
    ? `the server with PID ${owner.pid}${owner.port ? ` on port ${owner.port}` : ' (still starting)'}`
    : `an ids command with PID ${owner.pid}`;
}
