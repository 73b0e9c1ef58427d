// A small hand-drawn SVG chart of one statement line over time: the latest values as a solid line,
// the values as first reported dashed where they differ. The figures themselves, each linked to its
// filing, are in the table above; the chart shows the shape.
export interface ChartPoint {
  label: string;
  latest: number;
  first: number;
}

const width = 640;
const height = 200;
const pad = { left: 8, right: 8, top: 12, bottom: 28 };

export function LineChart({ title, points }: { title: string; points: ChartPoint[] }) {
  const values = points.flatMap((p) => [p.latest, p.first]);
  const low = Math.min(0, ...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (i: number) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(points.length - 1, 1);
  const y = (v: number) => pad.top + (1 - (v - low) / span) * (height - pad.top - pad.bottom);
  const path = (pick: (p: ChartPoint) => number) => points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(' ');
  const restated = points.some((p) => p.first !== p.latest);
  return (
    <figure className="chart research-line-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} className="research-axis" />
        {restated ? <path d={path((p) => p.first)} className="research-first" fill="none" /> : null}
        <path d={path((p) => p.latest)} className="research-latest" fill="none" />
        {points.map((p, i) => (
          <circle key={p.label} cx={x(i)} cy={y(p.latest)} r={3} className="research-latest-point" />
        ))}
        {points.map((p, i) =>
          i === 0 || i === points.length - 1 || points.length <= 6 ? (
            <text key={p.label} x={x(i)} y={height - 8} textAnchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'} className="research-tick">
              {p.label}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        {title}. Solid: latest values{restated ? '; dashed: as first reported' : '; no value was restated'}.
      </figcaption>
    </figure>
  );
}
