// The WebExtension namespace for both browsers: Firefox's promise-based `browser`, else Chromium's
// `chrome` (promise-returning in Manifest V3). Everything in the extension goes through `ext`.
// Read off globalThis so that importing this module outside a browser (unit tests) does not throw.
const scope = globalThis as { browser?: typeof chrome; chrome?: typeof chrome };
export const ext: typeof chrome = (scope.browser ?? scope.chrome)!;

interface UaData {
  brands?: { brand: string }[];
  platform?: string;
}

/** "Chromium on Linux", "Firefox on Windows": how the server names the key it makes for us. */
export function clientLabel(nav: { userAgent: string; userAgentData?: UaData } = navigator as never): string {
  const ua = nav.userAgent;
  const brands = (nav.userAgentData?.brands ?? []).map((b) => b.brand);
  const name = /Firefox\//.test(ua)
    ? "Firefox"
    : /Edg\//.test(ua) || brands.includes("Microsoft Edge")
      ? "Edge"
      : brands.includes("Google Chrome")
        ? "Chrome"
        : brands.includes("Brave")
          ? "Brave"
          : /OPR\//.test(ua) || brands.includes("Opera")
            ? "Opera"
            : "Chromium";
  const platform = `${nav.userAgentData?.platform ?? ""} ${ua}`;
  const os = /Android/.test(platform)
    ? "Android"
    : /CrOS|Chrome OS/.test(platform)
      ? "ChromeOS"
      : /Windows/.test(platform)
        ? "Windows"
        : /Mac ?OS|Macintosh/.test(platform)
          ? "macOS"
          : /Linux|X11/.test(platform)
            ? "Linux"
            : "another system";
  return `${name} on ${os}`;
}
