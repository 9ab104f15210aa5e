/** The two calls of solc-js (npm `solc`, a CommonJS module) we use; the package ships no types. */
declare module 'solc' {
  interface Solc {
    /** Standard JSON input in, standard JSON output out. */
    compile(input: string): string;
    /** e.g. `0.8.26+commit.8a97fa7a.Emscripten.clang`. */
    version(): string;
  }
  const solc: Solc;
  export default solc;
}
