import { create } from 'qrcode';
import { useMemo } from 'react';

/** Modules of white around the code, as scanners want. */
const QUIET_ZONE = 4;

/**
 * `text` as a QR code, drawn as inline SVG by React: no image to load, nothing inline for the
 * Content-Security-Policy to refuse (its colours are attributes, not styles).
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { modules } = create(text, { errorCorrectionLevel: 'M' });
    const squares: string[] = [];
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) squares.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
      }
    }
    return { size: modules.size + 2 * QUIET_ZONE, path: squares.join('') };
  }, [text]);
  return (
    <svg className="qr-code" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
