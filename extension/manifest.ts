// The Manifest V3 document for each browser. One description; the build writes the differences:
// Chromium runs the background as a service worker, Firefox as an event page (background.scripts)
// and needs an add-on id.

export type Target = "chromium" | "firefox";

export const GECKO_ID = "commonplace-extension@commonplace.local";
export const ICON_SIZES = [16, 32, 48, 128] as const;

// Strict: only the extension's own scripts and styles; connections to any http(s) origin because the
// server's address is the user's choice (the host permission still has to be granted for it).
export const EXTENSION_CSP =
  "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; connect-src http: https:; img-src 'self'; style-src 'self'";

export function manifestFor(target: Target, o: { version: string; hostPermissions?: string[] }) {
  const icons = Object.fromEntries(ICON_SIZES.map((s) => [String(s), `icons/icon-${s}.png`]));
  return {
    manifest_version: 3,
    name: "Commonplace",
    short_name: "Commonplace",
    version: o.version,
    description: "Save the page you are reading, a link or a quote to your own Commonplace library.",
    icons,
    action: { default_title: "Save to Commonplace", default_popup: "popup.html", default_icon: icons },
    options_ui: { page: "options.html", open_in_tab: true },
    background: target === "chromium" ? { service_worker: "background.js" } : { scripts: ["background.js"] },
    // activeTab + scripting: read the page's HTML and URL when you ask to save it; tabs: the page's
    // address when you switch tabs, for the "already saved" badge; contextMenus; storage: the server
    // address and key.
    permissions: ["activeTab", "contextMenus", "scripting", "storage", "tabs"],
    // The user's server, asked for at connect time for that one origin.
    optional_host_permissions: ["http://*/*", "https://*/*"],
    ...(o.hostPermissions?.length ? { host_permissions: o.hostPermissions } : {}),
    content_security_policy: { extension_pages: EXTENSION_CSP },
    commands: {
      _execute_action: { suggested_key: { default: "Alt+Shift+S" }, description: "Open the save popup" },
      "save-page": { suggested_key: { default: "Alt+Shift+D" }, description: "Save this page at once" },
    },
    ...(target === "firefox"
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              // 140 (the ESR) is the first to read data_collection_permissions.
              strict_min_version: "140.0",
              data_collection_permissions: { required: ["websiteContent", "browsingActivity"] },
            },
            gecko_android: { strict_min_version: "142.0" },
          },
        }
      : { minimum_chrome_version: "120" }),
  };
}
