import { useEffect, useState } from 'react';
import { getRuntimeConfig } from '../lib/runtime-config.ts';
import { hasWebGL } from '../lib/webgl.ts';

/** The street map's style when the deployment has one and the browser can draw it; else null. */
export function useStreetMapStyle(): string | null {
  const [styleUrl, setStyleUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    getRuntimeConfig().then(
      (config) => current && setStyleUrl(config.map_style_url && hasWebGL() ? config.map_style_url : null),
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);
  return styleUrl;
}
