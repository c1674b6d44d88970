// Runs the Flite command-line synthesizer (a WASI program) entirely in memory: text in, WAV bytes out.

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_NOENT = 44;
const ERRNO_SPIPE = 70;
const OFLAG_CREAT = 1;
const FILETYPE_CHARACTER_DEVICE = 2;
const FILETYPE_DIRECTORY = 3;
const FILETYPE_REGULAR_FILE = 4;
const PREOPEN_FD = 3; // the one directory the program sees: an empty in-memory "/"

class ProcExit {
  constructor(readonly code: number) {}
}

class MemFile {
  data = new Uint8Array(64 * 1024);
  length = 0;
  position = 0;

  write(chunk: Uint8Array): void {
    const end = this.position + chunk.length;
    if (end > this.data.length) {
      const grown = new Uint8Array(Math.max(this.data.length * 2, end));
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(chunk, this.position);
    this.position = end;
    this.length = Math.max(this.length, end);
  }

  bytes(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}

export interface WasiRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Files the program created, by path. */
  files: Map<string, Uint8Array>;
}

/** Instantiates the module afresh (a WASI command runs once) and runs its _start with these arguments. */
export function runWasiCommand(module: WebAssembly.Module, args: string[]): WasiRun {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const argv = args.map((a) => encoder.encode(`${a}\0`));
  const open = new Map<number, { path: string; file: MemFile }>();
  const created = new Map<string, MemFile>();
  let nextFd = PREOPEN_FD + 1;
  let stdout = "";
  let stderr = "";
  let memory: WebAssembly.Memory | undefined;
  // The memory may grow during the run, which detaches old views: take fresh ones on every call.
  const view = () => new DataView(memory!.buffer);
  const bytes = () => new Uint8Array(memory!.buffer);

  const imports = {
    args_sizes_get(countPtr: number, sizePtr: number) {
      view().setUint32(countPtr, argv.length, true);
      view().setUint32(
        sizePtr,
        argv.reduce((n, a) => n + a.length, 0),
        true,
      );
      return ERRNO_SUCCESS;
    },
    args_get(argvPtr: number, bufPtr: number) {
      let at = bufPtr;
      argv.forEach((arg, i) => {
        view().setUint32(argvPtr + i * 4, at, true);
        bytes().set(arg, at);
        at += arg.length;
      });
      return ERRNO_SUCCESS;
    },
    clock_time_get(_id: number, _precision: bigint, outPtr: number) {
      view().setBigUint64(outPtr, BigInt(Date.now()) * 1_000_000n, true);
      return ERRNO_SUCCESS;
    },
    fd_close(fd: number) {
      open.delete(fd);
      return ERRNO_SUCCESS;
    },
    fd_fdstat_get(fd: number, outPtr: number) {
      const type = fd <= 2 ? FILETYPE_CHARACTER_DEVICE : fd === PREOPEN_FD ? FILETYPE_DIRECTORY : FILETYPE_REGULAR_FILE;
      if (fd > PREOPEN_FD && !open.has(fd)) return ERRNO_BADF;
      const v = view();
      v.setUint8(outPtr, type);
      v.setUint16(outPtr + 2, 0, true);
      v.setBigUint64(outPtr + 8, 0xffff_ffffn, true);
      v.setBigUint64(outPtr + 16, 0xffff_ffffn, true);
      return ERRNO_SUCCESS;
    },
    fd_fdstat_set_flags: () => ERRNO_SUCCESS,
    fd_prestat_get(fd: number, outPtr: number) {
      if (fd !== PREOPEN_FD) return ERRNO_BADF;
      view().setUint8(outPtr, 0);
      view().setUint32(outPtr + 4, 1, true);
      return ERRNO_SUCCESS;
    },
    fd_prestat_dir_name(fd: number, pathPtr: number, len: number) {
      if (fd !== PREOPEN_FD) return ERRNO_BADF;
      if (len >= 1) bytes()[pathPtr] = 0x2f; // "/"
      return ERRNO_SUCCESS;
    },
    fd_read(fd: number, iovs: number, iovsLen: number, nreadPtr: number) {
      const entry = open.get(fd);
      if (fd !== 0 && !entry) return ERRNO_BADF;
      let total = 0;
      for (let i = 0; entry && i < iovsLen; i++) {
        const ptr = view().getUint32(iovs + i * 8, true);
        const len = view().getUint32(iovs + i * 8 + 4, true);
        const chunk = entry.file.data.subarray(
          entry.file.position,
          Math.min(entry.file.length, entry.file.position + len),
        );
        bytes().set(chunk, ptr);
        entry.file.position += chunk.length;
        total += chunk.length;
      }
      view().setUint32(nreadPtr, total, true);
      return ERRNO_SUCCESS;
    },
    fd_seek(fd: number, offset: bigint, whence: number, outPtr: number) {
      const entry = open.get(fd);
      if (!entry) return fd <= 2 ? ERRNO_SPIPE : ERRNO_BADF;
      const base = whence === 0 ? 0 : whence === 1 ? entry.file.position : entry.file.length;
      entry.file.position = Math.max(0, base + Number(offset));
      view().setBigUint64(outPtr, BigInt(entry.file.position), true);
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovs: number, iovsLen: number, nwrittenPtr: number) {
      const entry = open.get(fd);
      if (fd !== 1 && fd !== 2 && !entry) return ERRNO_BADF;
      let total = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = view().getUint32(iovs + i * 8, true);
        const len = view().getUint32(iovs + i * 8 + 4, true);
        const chunk = bytes().subarray(ptr, ptr + len);
        if (entry) entry.file.write(chunk);
        else if (fd === 1) stdout += decoder.decode(chunk);
        else stderr += decoder.decode(chunk);
        total += len;
      }
      view().setUint32(nwrittenPtr, total, true);
      return ERRNO_SUCCESS;
    },
    path_open(
      dirFd: number,
      _dirFlags: number,
      pathPtr: number,
      pathLen: number,
      oflags: number,
      _rb: bigint,
      _ri: bigint,
      _fdFlags: number,
      fdPtr: number,
    ) {
      if (dirFd !== PREOPEN_FD) return ERRNO_BADF;
      const path = decoder.decode(bytes().slice(pathPtr, pathPtr + pathLen));
      let file = created.get(path);
      if (oflags & OFLAG_CREAT) {
        file = new MemFile();
        created.set(path, file);
      }
      if (!file) return ERRNO_NOENT;
      const fd = nextFd++;
      open.set(fd, { path, file });
      view().setUint32(fdPtr, fd, true);
      return ERRNO_SUCCESS;
    },
    proc_exit(code: number) {
      throw new ProcExit(code);
    },
  };

  const instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
  memory = instance.exports.memory as WebAssembly.Memory;
  let exitCode = 0;
  try {
    (instance.exports._start as () => void)();
  } catch (err) {
    if (!(err instanceof ProcExit)) throw err;
    exitCode = err.code;
  }
  const files = new Map([...created].map(([path, file]) => [path, file.bytes()] as const));
  return { exitCode, stdout, stderr, files };
}

/** Flite reads Latin text only: fold accents and typographic punctuation, drop everything else. */
export function textForFlite(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/\s*[\u2013\u2014]\s*/g, ", ")
    .replace(/\u2026/g, "...")
    .normalize("NFKD")
    .replace(/[^\x20-\x7e\n]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** One synthesis (`settings` are Flite features, e.g. int_f0_target_mean): returns the WAV file Flite wrote (16 kHz, 16-bit mono for the bundled voices). */
export function fliteToWav(
  module: WebAssembly.Module,
  text: string,
  voice: string,
  settings: Record<string, string | number> = {},
): Uint8Array {
  const setf = Object.entries(settings).flatMap(([k, v]) => ["--setf", `${k}=${v}`]);
  const run = runWasiCommand(module, ["flite", "-voice", voice, ...setf, "-t", text, "-o", "out.wav"]);
  const wav = run.files.get("out.wav");
  if (run.exitCode !== 0 || !wav) {
    const why = (run.stderr || run.stdout).trim().slice(0, 300) || `exit code ${run.exitCode}`;
    throw new Error(`flite failed: ${why}`);
  }
  return wav;
}
