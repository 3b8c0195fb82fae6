import { scaleBar } from './grid.ts';

/** Zoom buttons and the scale bar of the built-in map. */
export function MapControls({
  metresPerPixel,
  onZoom,
}: {
  metresPerPixel: number;
  onZoom(delta: number): void;
}) {
  const scale = scaleBar(metresPerPixel);
  return (
    <>
      <div className="fmap__controls">
        <button type="button" className="fmap__control" aria-label="Zoom in" onClick={() => onZoom(1)}>
          +
        </button>
        <button type="button" className="fmap__control" aria-label="Zoom out" onClick={() => onZoom(-1)}>
          −
        </button>
      </div>
      <div className="fmap__scale" aria-hidden="true">
        <span className="fmap__scale-bar" style={{ width: `${scale.pixels}px` }} />
        {scale.label}
      </div>
    </>
  );
}
