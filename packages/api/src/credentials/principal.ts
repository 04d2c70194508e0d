/** Who is calling: nobody, a signed-in person, or a workspace API key. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'session'; userId: string; sessionId: string; expiresAt: Date; authenticatedAt: Date }
  | { kind: 'api_key'; keyId: string; workspaceId: string };

export type KeyPrincipal = Extract<Principal, { kind: 'api_key' }>;
