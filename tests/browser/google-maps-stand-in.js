// A stand-in for Google's Maps JavaScript API, served in place of maps.googleapis.com/maps/api/js
// by the Google map's browser tests (there is no network here). It implements only what the search
// map calls through @react-google-maps/api: a Web Mercator map with a centre and zoom, its bounds,
// fitBounds, panning by dragging, events (idle after each change), overlays in panes drawn at
// their point, and an empty place search box. No tiles: the map is a plain coloured box.
/* global window, document */
(() => {
  const TILE = 256;
  const registry = new WeakMap();

  const event = {
    addListener(instance, name, handler) {
      const byName = registry.get(instance) ?? new Map();
      registry.set(instance, byName);
      const handlers = byName.get(name) ?? new Set();
      byName.set(name, handlers);
      handlers.add(handler);
      return { remove: () => handlers.delete(handler) };
    },
    removeListener(listener) {
      listener?.remove();
    },
    trigger(instance, name, ...args) {
      for (const handler of [...(registry.get(instance)?.get(name) ?? [])]) handler.apply(instance, args);
    },
  };

  class LatLng {
    constructor(lat, lng) {
      this.latitude = typeof lat === 'object' ? lat.lat : lat;
      this.longitude = typeof lat === 'object' ? lat.lng : lng;
    }
    lat() {
      return this.latitude;
    }
    lng() {
      return this.longitude;
    }
  }

  class LatLngBounds {
    constructor(box) {
      this.box = box;
    }
    toJSON() {
      return { ...this.box };
    }
  }

  /** World pixels at zoom 0. */
  function project(lat, lng) {
    const sin = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
    return { x: TILE * (0.5 + lng / 360), y: TILE * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
  }

  function unproject(x, y) {
    const n = Math.PI - (2 * Math.PI * y) / TILE;
    return { lat: (180 / Math.PI) * Math.atan(Math.sinh(n)), lng: (x / TILE - 0.5) * 360 };
  }

  const literal = (point) => (point instanceof LatLng ? { lat: point.lat(), lng: point.lng() } : point);

  // Named apart from the built-in Map, which the event registry above uses.
  class MapView {
    constructor(div) {
      this.div = div;
      this.centre = { lat: 0, lng: 0 };
      this.zoom = 1;
      this.overlays = new Set();
      this.surface = document.createElement('div');
      this.surface.style.cssText = 'position:absolute;inset:0;overflow:hidden;background:#e8e4da';
      div.style.position = 'relative';
      div.style.overflow = 'hidden';
      div.append(this.surface);
      this.panes = {};
      for (const name of ['mapPane', 'overlayLayer', 'markerLayer', 'overlayMouseTarget', 'floatPane']) {
        const pane = document.createElement('div');
        pane.style.cssText = 'position:absolute;left:0;top:0';
        this.surface.append(pane);
        this.panes[name] = pane;
      }
      this.listenForDrags();
    }

    listenForDrags() {
      let start = null;
      let dragged = false;
      this.surface.addEventListener('mousedown', (e) => {
        start = { x: e.clientX, y: e.clientY, centre: this.centrePixel() };
        dragged = false;
      });
      window.addEventListener('mousemove', (e) => {
        if (!start) return;
        const dx = e.clientX - start.x;
        const dy = e.clientY - start.y;
        if (!dragged && Math.abs(dx) + Math.abs(dy) < 3) return;
        if (!dragged) event.trigger(this, 'dragstart');
        dragged = true;
        const scale = 2 ** this.zoom;
        this.centre = unproject(start.centre.x - dx / scale, start.centre.y - dy / scale);
        this.changed();
      });
      window.addEventListener('mouseup', () => {
        if (start && dragged) event.trigger(this, 'dragend');
        start = null;
      });
      this.surface.addEventListener('click', () => {
        if (!dragged) event.trigger(this, 'click', {});
      });
    }

    centrePixel() {
      return project(this.centre.lat, this.centre.lng);
    }

    /** A point's pixel in the map box. */
    pixel(point) {
      const { lat, lng } = literal(point);
      const p = project(lat, lng);
      const c = this.centrePixel();
      const scale = 2 ** this.zoom;
      return {
        x: (p.x - c.x) * scale + this.div.clientWidth / 2,
        y: (p.y - c.y) * scale + this.div.clientHeight / 2,
      };
    }

    setOptions() {}
    getDiv() {
      return this.div;
    }
    getCenter() {
      return new LatLng(this.centre.lat, this.centre.lng);
    }
    getZoom() {
      return this.zoom;
    }
    setCenter(point) {
      this.centre = literal(point);
      this.changed();
    }
    panTo(point) {
      this.setCenter(point);
    }
    setZoom(zoom) {
      if (zoom === this.zoom) return;
      this.zoom = zoom;
      event.trigger(this, 'zoom_changed');
      this.changed();
    }
    getBounds() {
      const { clientWidth: width, clientHeight: height } = this.div;
      if (!width || !height) return undefined;
      const c = this.centrePixel();
      const scale = 2 ** this.zoom;
      const nw = unproject(c.x - width / 2 / scale, c.y - height / 2 / scale);
      const se = unproject(c.x + width / 2 / scale, c.y + height / 2 / scale);
      return new LatLngBounds({ west: nw.lng, south: se.lat, east: se.lng, north: nw.lat });
    }
    fitBounds(bounds, padding = 0) {
      const box = bounds instanceof LatLngBounds ? bounds.toJSON() : bounds;
      const a = project(box.north, box.west);
      const b = project(box.south, box.east);
      const width = Math.max(1, this.div.clientWidth - 2 * padding);
      const height = Math.max(1, this.div.clientHeight - 2 * padding);
      const fit = Math.min(Math.log2(width / (b.x - a.x)), Math.log2(height / (b.y - a.y)));
      this.centre = unproject((a.x + b.x) / 2, (a.y + b.y) / 2);
      this.setZoom(Math.max(0, Math.min(21, Math.floor(fit))));
      this.changed();
    }

    /** Overlays are drawn again, listeners told, and "idle" follows once things settle. */
    changed() {
      for (const overlay of this.overlays) overlay.draw();
      event.trigger(this, 'center_changed');
      event.trigger(this, 'bounds_changed');
      window.clearTimeout(this.idle);
      this.idle = window.setTimeout(() => event.trigger(this, 'idle'), 30);
    }
  }

  class OverlayView {
    setMap(map) {
      if (this.map) {
        this.map.overlays.delete(this);
        this.onRemove();
      }
      this.map = map;
      if (!map) return;
      map.overlays.add(this);
      this.onAdd();
      this.draw();
    }
    getMap() {
      return this.map;
    }
    getPanes() {
      return this.map?.panes ?? null;
    }
    getProjection() {
      const map = this.map;
      return {
        fromLatLngToDivPixel: (point) => map.pixel(point),
        fromLatLngToContainerPixel: (point) => map.pixel(point),
      };
    }
  }

  class SearchBox {
    getPlaces() {
      return [];
    }
    setBounds() {}
  }

  window.google = { maps: { event, LatLng, LatLngBounds, Map: MapView, OverlayView, places: { SearchBox } } };
  // Google calls the page's callback once the API is ready.
  const callback = new URL(document.currentScript.src).searchParams.get('callback');
  if (callback) window[callback]();
})();
