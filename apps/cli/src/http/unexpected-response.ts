/** A response that is not lfk's JSON: a proxy's error page, or a base URL that is not an lfk server. */
export class UnexpectedResponseError extends Error {
  readonly status: number;
  readonly contentType: string;

  constructor(status: number, contentType: string) {
    super(`HTTP ${status} with ${contentType || 'no content type'}`);
    this.name = 'UnexpectedResponseError';
    this.status = status;
    this.contentType = contentType;
  }
}
