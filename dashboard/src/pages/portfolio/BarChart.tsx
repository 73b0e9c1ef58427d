// A small hand-drawn SVG bar chart of signed values (betas, contributions, returns by scenario):
// one bar per label from a zero line, negative values to the left. The figures themselves are in
// the table beside it; the chart shows their sizes. Drawn with SVG attributes only (the CSP
// allows no inline styles).
export interface Bar {
  label: string;
  value: number;
}

const width = 640;
const row = 24;
const labelWidth = 150;
const valueWidth = 90;

export function BarChart({ title, bars, format }: { title: string; bars: Bar[]; format: (value: number) => string }) {
  const largest = Math.max(...bars.map((b) => Math.abs(b.value)), Number.MIN_VALUE);
  const signed = bars.some((b) => b.value < 0) && bars.some((b) => b.value > 0);
  const negativeOnly = bars.every((b) => b.value <= 0);
  const plot = width - labelWidth - valueWidth;
  const zero = signed ? labelWidth + plot / 2 : negativeOnly ? labelWidth + plot : labelWidth;
  const scale = (signed ? plot / 2 : plot) / largest;
  const height = bars.length * row + 8;
  return (
    <svg className="portfolio-bars" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${bars.map((b) => `${b.label} ${format(b.value)}`).join(', ')}`}>
      {bars.map((b, i) => {
        const length = Math.abs(b.value) * scale;
        const y = 4 + i * row;
        return (
          <g key={b.label}>
            <text x={labelWidth - 8} y={y + row / 2 + 4} textAnchor="end" className="portfolio-bar-label">
              {b.label}
            </text>
            <rect x={b.value < 0 ? zero - length : zero} y={y + 4} width={Math.max(length, 0.5)} height={row - 8} className={b.value < 0 ? 'portfolio-bar-negative' : 'portfolio-bar'} />
            <text x={width - valueWidth + 8} y={y + row / 2 + 4} className="portfolio-bar-label">
              {format(b.value)}
            </text>
          </g>
        );
      })}
      <line x1={zero} x2={zero} y1={0} y2={height} className="portfolio-bar-axis" />
    </svg>
  );
}
