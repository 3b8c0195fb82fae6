// A few landmarks so the built-in map reads as New York: Central Park and neighbourhood names.
import { toScreen, type Viewport } from './projection.ts';

const CENTRAL_PARK = [
  { lat: 40.7681, lng: -73.9819 },
  { lat: 40.7644, lng: -73.973 },
  { lat: 40.7968, lng: -73.9492 },
  { lat: 40.8006, lng: -73.958 },
];

const NEIGHBOURHOODS: { name: string; lat: number; lng: number; minZoom: number; maxZoom?: number }[] = [
  { name: 'Manhattan', lat: 40.758, lng: -73.9855, minZoom: 9, maxZoom: 11.5 },
  { name: 'Brooklyn', lat: 40.65, lng: -73.95, minZoom: 9, maxZoom: 11.5 },
  { name: 'Queens', lat: 40.7282, lng: -73.7949, minZoom: 9, maxZoom: 11.5 },
  { name: 'The Bronx', lat: 40.8448, lng: -73.8648, minZoom: 9, maxZoom: 11.5 },
  { name: 'Staten Island', lat: 40.5795, lng: -74.1502, minZoom: 9, maxZoom: 11.5 },
  { name: 'Midtown', lat: 40.7549, lng: -73.984, minZoom: 12 },
  { name: 'Harlem', lat: 40.8116, lng: -73.9465, minZoom: 12 },
  { name: 'Upper West Side', lat: 40.787, lng: -73.9754, minZoom: 13 },
  { name: 'Upper East Side', lat: 40.7736, lng: -73.9566, minZoom: 13 },
  { name: 'Chelsea', lat: 40.7465, lng: -74.0014, minZoom: 13 },
  { name: 'East Village', lat: 40.7265, lng: -73.9815, minZoom: 13 },
  { name: 'Greenwich Village', lat: 40.7336, lng: -74.0027, minZoom: 13 },
  { name: 'Lower Manhattan', lat: 40.7075, lng: -74.0113, minZoom: 12 },
  { name: 'Williamsburg', lat: 40.7081, lng: -73.9571, minZoom: 12 },
  { name: 'Downtown Brooklyn', lat: 40.6939, lng: -73.9852, minZoom: 13 },
  { name: 'Park Slope', lat: 40.671, lng: -73.9814, minZoom: 13 },
  { name: 'Bushwick', lat: 40.6944, lng: -73.9213, minZoom: 13 },
  { name: 'Astoria', lat: 40.7644, lng: -73.9235, minZoom: 12 },
  { name: 'Long Island City', lat: 40.7447, lng: -73.9485, minZoom: 13 },
  { name: 'Bay Ridge', lat: 40.6264, lng: -74.0299, minZoom: 12 },
  { name: 'Flushing', lat: 40.7675, lng: -73.8331, minZoom: 12 },
  { name: 'Jamaica', lat: 40.7027, lng: -73.789, minZoom: 12 },
];

export function Landmarks({ view }: { view: Viewport }) {
  const park = CENTRAL_PARK.map((p) => toScreen(p, view));
  const parkPath =
    park.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ') + 'Z';
  const labels = NEIGHBOURHOODS.filter((n) => view.zoom >= n.minZoom && view.zoom < (n.maxZoom ?? 19))
    .map((n) => ({ ...n, ...toScreen(n, view) }))
    .filter((n) => n.x > -60 && n.x < view.width + 60 && n.y > 0 && n.y < view.height);
  return (
    <g className="fmap__landmarks" aria-hidden="true">
      {view.zoom >= 11 && <path className="fmap__park" d={parkPath} />}
      {labels.map((label) => (
        <text key={label.name} className="fmap__label" x={label.x} y={label.y} textAnchor="middle">
          {label.name}
        </text>
      ))}
    </g>
  );
}
