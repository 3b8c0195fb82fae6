import { lazy, Suspense, useId, useState } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { useStreetMapStyle } from '../../../hooks/use-street-map-style.ts';
import { TEXT_LIMITS } from '../../../lib/catalogue.ts';
import type { AddressLocation } from '../hooks/use-address-location.ts';
import { formatCoordinates } from '../location.ts';

const LocationPicker = lazy(() => import('./LocationPicker.tsx'));

type AddressFieldProps = {
  value: string;
  onChange(value: string): void;
  location: AddressLocation;
  disabled?: boolean;
};

/**
 * The required address with its Location button, the street map to place the shop on (when the
 * deployment has one), and the position it keeps.
 */
export function AddressField({ value, onChange, location, disabled }: AddressFieldProps) {
  const id = useId();
  const styleUrl = useStreetMapStyle();
  const [picking, setPicking] = useState(false);
  const [pickerFailed, setPickerFailed] = useState(false);
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Address
      </label>
      <div className="address-field">
        <input
          id={id}
          className="input"
          name="address"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
          maxLength={TEXT_LIMITS.address}
          autoComplete="street-address"
          placeholder="123 Main St, New York, NY"
          aria-describedby={`${id}-note`}
          disabled={disabled}
        />
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void location.locate(onChange)}
          disabled={disabled || location.locating}
        >
          <Icon name="locate" size={18} />
          {location.locating ? 'Locating...' : 'Location'}
        </button>
        {styleUrl && !pickerFailed && (
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={picking}
            onClick={() => setPicking((open) => !open)}
            disabled={disabled}
          >
            <Icon name="map" size={18} />
            {picking ? 'Hide map' : 'Place on map'}
          </button>
        )}
      </div>
      {picking && styleUrl && !pickerFailed && (
        <Suspense fallback={<div className="location-picker__map" />}>
          <LocationPicker
            styleUrl={styleUrl}
            value={location.coords}
            onPick={location.pick}
            onFail={() => setPickerFailed(true)}
          />
        </Suspense>
      )}
      {pickerFailed && (
        <p className="address-field__status">
          The map could not be loaded: use Location or type the address.
        </p>
      )}
      <div id={`${id}-note`} aria-live="polite" className="address-field__status">
        {location.coords && (
          <span className="address-field__coords">
            <Icon name="pin" size={14} /> Position {formatCoordinates(location.coords)}
            <button
              type="button"
              className="address-field__forget"
              onClick={location.clear}
              disabled={disabled}
            >
              Remove
            </button>
          </span>
        )}
        {location.note && <span className="address-field__note">{location.note}</span>}
      </div>
    </div>
  );
}
