/** What the benchmark runner and its server process say to each other over the IPC channel. */
export type ToServer =
  | { type: 'principal'; keyId: string; workspaceId: string }
  | { type: 'queries' }
  /** Marks a form's notification address verified, as following the emailed link would. */
  | { type: 'verify-notify'; formId: string };

export type FromServer = { type: 'ready'; url: string } | { type: 'queries'; count: number } | { type: 'verified' };
