// Taking a key: from the approval tab's fragment (background) or pasted on the options page.
import { ApiError, createApi } from "./api.ts";
import { clearSettings, saveSettings } from "./settings.ts";

/** Checks a key against GET /api/v1/me and stores it with the account it belongs to. */
export async function acceptKey(server: string, key: string): Promise<{ email: string } | { error: string }> {
  try {
    const me = await createApi({ server, key: key.trim() }).me();
    await saveSettings({ server, key: key.trim(), email: me.email, connection: "connected" });
    await clearSettings(["connectError"]);
    return { email: me.email };
  } catch (e) {
    const message =
      e instanceof ApiError && e.failure.kind === "disconnected" ? "The server refused this key" : (e as Error).message;
    await saveSettings({ connectError: message });
    return { error: message };
  }
}
