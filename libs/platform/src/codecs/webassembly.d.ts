/**
 * The WebAssembly members the codec pool uses. Node provides the global at run time, but its type
 * declarations come with TypeScript's DOM library, which server code does not load.
 */
declare namespace WebAssembly {
  // Opaque: compiled once, handed to threads, never inspected.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Module {}
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
}
