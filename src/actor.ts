// Who is calling: the user and how they proved it. Services take an actor, never a request.
export type AuthInfo =
  | { type: "api_key"; key_id: string; key_name: string }
  | { type: "session"; session_id: string }
  | { type: "oauth"; client_id: string; grant_id: string }
  | { type: "system"; reason: string };

export interface Actor {
  userId: string;
  auth: AuthInfo;
  /** Causation depth for events caused by workflow actions (loop guard). */
  depth?: number;
}

export const systemActor = (userId: string, reason: string, depth = 0): Actor => ({
  userId,
  auth: { type: "system", reason },
  depth,
});
