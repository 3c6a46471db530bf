/**
 * A seccomp filter, as bubblewrap's `--seccomp FD` reads it, that refuses the two ioctls by which
 * a process pushes input into a terminal: TIOCSTI (keys into the shared terminal, which the
 * person's shell reads once the agent ends) and TIOCLINUX (the same on a Linux console). The agent
 * keeps the terminal itself, so an interactive agent works; only the pushing is refused (EPERM).
 * Flatpak refuses the same two. Classic BPF, written out here because no tool builds it for us.
 */
import { arch, endianness } from 'node:os';

const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const EPERM = 1;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
// struct seccomp_data: nr at 0, arch at 4, args[] from 16; an ioctl's request is args[1].
const NR = 0;
const ARCH = 4;
const REQUEST_LOW = endianness() === 'LE' ? 24 : 28;
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;

/** ioctl's number under each system-call convention a process on this machine may use. */
const IOCTLS: Record<string, { arch: number; nr: number }[]> = {
  // x86-64, x32 (nr with bit 30 set) and i386 (int 0x80): each is a way in.
  x64: [{ arch: 0xc000003e, nr: 16 }, { arch: 0xc000003e, nr: 0x40000000 | 514 }, { arch: 0x40000003, nr: 54 }],
  ia32: [{ arch: 0x40000003, nr: 54 }],
  arm64: [{ arch: 0xc00000b7, nr: 29 }, { arch: 0x40000028, nr: 54 }],
  arm: [{ arch: 0x40000028, nr: 54 }],
  riscv64: [{ arch: 0xc00000f3, nr: 29 }],
};

/** The filter for this machine, or undefined where its conventions are not known here. */
export function terminalFilter(machine: string = arch()): Buffer | undefined {
  const ways = IOCTLS[machine];
  if (!ways) return undefined;
  const program: [number, number, number, number][] = [];
  for (const way of ways) {
    // Eight instructions a way: not this convention or not ioctl, on to the next way.
    program.push(
      [LD_W_ABS, 0, 0, ARCH],
      [JEQ_K, 0, 6, way.arch],
      [LD_W_ABS, 0, 0, NR],
      [JEQ_K, 0, 4, way.nr],
      [LD_W_ABS, 0, 0, REQUEST_LOW],
      [JEQ_K, 1, 0, TIOCSTI],
      [JEQ_K, 0, 1, TIOCLINUX],
      [RET_K, 0, 0, RET_ERRNO | EPERM],
    );
  }
  program.push([RET_K, 0, 0, RET_ALLOW]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    const at = i * 8;
    if (endianness() === 'LE') bytes.writeUInt16LE(code, at); else bytes.writeUInt16BE(code, at);
    bytes.writeUInt8(jt, at + 2);
    bytes.writeUInt8(jf, at + 3);
    if (endianness() === 'LE') bytes.writeUInt32LE(k >>> 0, at + 4); else bytes.writeUInt32BE(k >>> 0, at + 4);
  });
  return bytes;
}
