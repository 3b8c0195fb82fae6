// Background grid lines and the scale bar of the built-in map.
import { fromScreen, toScreen, type Viewport } from './projection.ts';

export type GridLine = { key: string; x1: number; y1: number; x2: number; y2: number };

const STEPS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/** Meridians and parallels about every 80-200 px. */
export function gridLines(view: Viewport): GridLine[] {
  const topLeft = fromScreen(0, 0, view);
  const bottomRight = fromScreen(view.width, view.height, view);
  const spanLng = Math.abs(bottomRight.lng - topLeft.lng);
  const wanted = (spanLng * 120) / Math.max(1, view.width);
  const step = STEPS.find((s) => s >= wanted) ?? 20;
  const lines: GridLine[] = [];
  for (
    let lng = Math.ceil(topLeft.lng / step) * step;
    lng <= bottomRight.lng && lines.length < 100;
    lng += step
  ) {
    const { x } = toScreen({ lat: topLeft.lat, lng }, view);
    lines.push({ key: `v${lng.toFixed(5)}`, x1: x, y1: 0, x2: x, y2: view.height });
  }
  for (
    let lat = Math.ceil(bottomRight.lat / step) * step;
    lat <= topLeft.lat && lines.length < 200;
    lat += step
  ) {
    const { y } = toScreen({ lat, lng: topLeft.lng }, view);
    lines.push({ key: `h${lat.toFixed(5)}`, x1: 0, y1: y, x2: view.width, y2: y });
  }
  return lines;
}

const DISTANCES = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000];

/** A round distance drawn about 60-150 px long. */
export function scaleBar(metresPerPixel: number): { pixels: number; label: string } {
  const metres = DISTANCES.find((d) => d / metresPerPixel >= 60) ?? 500000;
  const pixels = Math.round(metres / metresPerPixel);
  return { pixels, label: metres >= 1000 ? `${metres / 1000} km` : `${metres} m` };
}
