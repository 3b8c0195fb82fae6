// One way to open a MapLibre street map (the search screen's and the shop position picker's): no
// rotation or pitch, zoom buttons, a labelled canvas, and a single report of why it could not be
// shown — no WebGL (the constructor throws) or a style that does not load. Imported only by the
// lazily loaded map components, so maplibre-gl stays in its own on-demand chunk.
import maplibregl, { type MapOptions } from 'maplibre-gl';

export type StreetMapFailure = 'webgl' | 'style';

type StreetMapOptions = Pick<
  MapOptions,
  'container' | 'style' | 'center' | 'zoom' | 'bounds' | 'fitBoundsOptions'
> & {
  /** What a screen reader hears for the map. */
  title: string;
  attributionControl?: MapOptions['attributionControl'];
  /** The style has loaded: the map can take sources, markers and camera reads. */
  onStyled(map: maplibregl.Map): void;
  onFail(reason: StreetMapFailure): void;
};

/** The map, or null when it could not be made (onFail has been told). */
export function openStreetMap({
  title,
  onStyled,
  onFail,
  ...options
}: StreetMapOptions): maplibregl.Map | null {
  let map: maplibregl.Map;
  try {
    map = new maplibregl.Map({
      ...options,
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      locale: { 'Map.Title': title },
    });
  } catch {
    onFail('webgl');
    return null;
  }
  map.keyboard.disableRotation();
  map.touchZoomRotate.disableRotation();
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  let styled = false;
  void map.once('style.load', () => {
    styled = true;
    onStyled(map);
  });
  map.on('error', () => {
    if (!styled) onFail('style');
  });
  return map;
}
