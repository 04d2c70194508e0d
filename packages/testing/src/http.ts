/** An HTTP answer as the suites read it: status, headers, the raw body and the body parsed as JSON (undefined if it is not). */
export interface Res {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: any;
}
