import { exportSubmissions } from '@lfk/client';
import type { SubmissionStatus } from '@lfk/vocabulary';
import { useState } from 'react';
import { type Problem, problemOf, waitPhrase } from '../../api/problems.ts';
import { withReauthentication } from '../../api/reauthentication.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';

type ExportFormat = 'csv' | 'jsonl';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'Export CSV' },
  { format: 'jsonl', label: 'Export JSON Lines' },
];

/** "1.2 MB" */
const sizeOf = (bytes: number) => (bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`);

/** An export refused because the person already streams as many as they may: what to do about it. */
function explainBusy(problem: Problem) {
  if (problem.code !== 'rate_limited') return null;
  const when = problem.retryAfterSeconds !== null ? `in ${waitPhrase(problem.retryAfterSeconds)}` : 'in a little while';
  return `Exports still downloading count too, in other tabs or from the command line. Try again ${when}.`;
}

/** Hands `blob` to the browser as a download named `filename`. */
function saveAs(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The browser has the file once the click is handled; the address is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The export of what the page shows, as CSV (with the byte order mark Excel needs) or JSON Lines.
 * Fetched by the page rather than followed as a link, so that a refusal (the person's exports at
 * once, say: 429) is shown in words instead of as a failed download; the file is streamed into the
 * browser's own storage and saved when complete; one refused until the person confirms it's them
 * asks them in place, then goes on. The buttons go in the toolbar, the news under it.
 */
export function useExport(formId: string, status: SubmissionStatus, q: string, range: { since?: string | undefined; until?: string | undefined }) {
  const [running, setRunning] = useState<ExportFormat | null>(null);
  const [received, setReceived] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const start = async (format: ExportFormat) => {
    setRunning(format);
    setReceived(0);
    setProblem(null);
    try {
      const query = {
        format,
        ...(status === 'spam' ? { status } : {}),
        ...(q ? { q } : {}),
        ...(range.since ? { since: range.since } : {}),
        ...(range.until ? { until: range.until } : {}),
        ...(format === 'csv' ? { bom: true } : {}),
      };
      // Exports are sudo mode's: refused for that, the person confirms it's them and it goes on.
      const body = await withReauthentication(() => exportSubmissions({ baseUrl: window.location.origin }, formId, query));
      let bytes = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            bytes += chunk.byteLength;
            setReceived(bytes);
            controller.enqueue(chunk);
          },
        }),
      );
      saveAs(await new Response(counted).blob(), `${formId}-submissions.${format}`);
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setRunning(null);
    }
  };
  const buttons = FORMATS.map(({ format, label }) => (
    <button key={format} type="button" className="secondary" disabled={running !== null} onClick={() => void start(format)}>
      {label}
    </button>
  ));
  const news = (
    <>
      <p role="status" className="muted">
        {running ? `Exporting… ${sizeOf(received)}` : ''}
      </p>
      <ProblemAlert problem={problem} explain={explainBusy} />
    </>
  );
  return { buttons, news };
}
