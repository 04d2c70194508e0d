import { type Io, io } from './io.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** A call quicker than this shows nothing: a spinner that flashes is noise. */
const SHOW_AFTER_MS = 400;

/**
 * A spinner on stderr while any request is slower than a moment, for a person at a terminal only
 * (never in a pipe or a log). Returns what marks a request as started; that returns its end.
 */
export function slowRequestSpinner(label: string, stream: Io['stderr'] = io().stderr): (() => () => void) | undefined {
  if (!stream.isTTY) return undefined;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  let shown = 0;
  const clear = () => {
    if (shown) stream.write(`\r${' '.repeat(shown)}\r`);
    shown = 0;
  };
  const draw = () => {
    const text = `${FRAMES[frame++ % FRAMES.length]} ${label}`;
    stream.write(`\r${text}`);
    shown = text.length;
  };
  return () => {
    if (inFlight++ === 0) {
      timer = setTimeout(function tick() {
        draw();
        timer = setTimeout(tick, 80);
      }, SHOW_AFTER_MS);
      timer.unref();
    }
    return () => {
      if (--inFlight > 0) return;
      clearTimeout(timer);
      clear();
    };
  };
}
