import { useId } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { MapPlacement } from '../../../components/MapPlacement.tsx';
import { TEXT_LIMITS } from '../../../lib/catalogue.ts';
import { limitedChange } from '../../../lib/text-input.ts';
import type { UploadFormState } from '../hooks/use-upload-form.ts';
import { formatCoordinates } from '../../../lib/coordinates.ts';

type AddressFieldProps = {
  upload: Pick<UploadFormState<{ address: string }>, 'form' | 'update' | 'location' | 'busy'>;
};

/**
 * An upload form's required address, a whole row of its grid: the address with its Location
 * button, the street map to place the shop on (when the deployment has one), and the position it
 * keeps.
 */
export function AddressField({ upload }: AddressFieldProps) {
  const id = useId();
  const { location, busy: disabled } = upload;
  const onChange = (address: string) => upload.update({ address });

  return (
    <div className="item-form__grid--full">
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Address
        </label>
        <div className="address-field">
          <input
            id={id}
            className="input"
            name="address"
            value={upload.form.address}
            onChange={limitedChange(TEXT_LIMITS.address, onChange)}
            required
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
        </div>
        <MapPlacement value={location.coords} onPick={location.pick} disabled={disabled} />
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
    </div>
  );
}
