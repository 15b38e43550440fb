declare module "left-pad" {
  function pad(text: string, width: number): string;
  export default pad;
}

declare global {
  interface Window {
    lingo: string;
  }
}

declare const VERSION: string;
export declare function version(): string;
