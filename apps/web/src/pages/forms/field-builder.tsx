import { FIELD_TYPES, FILE_FIELD_LIMITS, type FieldType } from '@lfk/vocabulary';
import { useId } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { TextField } from '../../components/text-field.tsx';
import { EMPTY_FIELD, type EditorValues, MB } from './form-values.ts';

/** A form's fields, one row each: name, type, label, required, a select's options and a file field's limits. */
export function FieldBuilder({ form }: { form: UseFormReturn<EditorValues, unknown, unknown> }) {
  const { fields, append, remove, move } = useFieldArray({ control: form.control, name: 'schema' });
  const types = useWatch({ control: form.control, name: 'schema' });
  const errors = form.formState.errors;
  const listError = errorAt(errors, 'schema');
  const listErrorId = useId();
  return (
    <fieldset className="field-builder" aria-describedby={listError ? listErrorId : undefined}>
      <legend>Fields</legend>
      <p className="hint">What a submission holds. Names are the keys submitted (letters, digits, “_” and “-”).</p>
      <ol className="field-rows">
        {fields.map((field, index) => (
          <FieldRow
            key={field.id}
            form={form}
            index={index}
            type={types?.[index]?.type}
            multiple={types?.[index]?.multiple ?? false}
            count={fields.length}
            onRemove={() => remove(index)}
            onMove={(to) => move(index, to)}
          />
        ))}
      </ol>
      <ErrorText id={listErrorId} message={listError} />
      <button type="button" className="secondary" onClick={() => append({ ...EMPTY_FIELD })}>
        Add field
      </button>
    </fieldset>
  );
}

interface FieldRowProps {
  form: UseFormReturn<EditorValues, unknown, unknown>;
  index: number;
  type: FieldType | undefined;
  multiple: boolean;
  count: number;
  onRemove: () => void;
  onMove: (to: number) => void;
}

function FieldRow({ form, index, type, multiple, count, onRemove, onMove }: FieldRowProps) {
  const id = useId();
  const errors = form.formState.errors;
  const at = (part: string) => `schema.${index}.${part}` as const;
  const error = (part: string) => errorAt(errors, at(part));
  const n = index + 1;
  return (
    <li className="field-row">
      <fieldset>
        <legend>Field {n}</legend>
        <div className="field-row-grid">
          <TextField form={form} name={`schema.${index}.name`} label="Field name" autoComplete="off" />
          <div className="field">
            <label htmlFor={`${id}-type`}>Type</label>
            <select id={`${id}-type`} {...form.register(at('type') as `schema.${number}.type`)}>
              {FIELD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
            <ErrorText id={`${id}-type-error`} message={error('type')} />
          </div>
          <TextField form={form} name={`schema.${index}.label`} label="Label" autoComplete="off" />
          <div className="field checkbox">
            <input id={`${id}-required`} type="checkbox" {...form.register(at('required') as `schema.${number}.required`)} />
            <label htmlFor={`${id}-required`}>Required</label>
          </div>
        </div>
        {type === 'file' && <FileSettings form={form} index={index} multiple={multiple} />}
        {type === 'select' && (
          <div className="field">
            <label htmlFor={`${id}-options`}>Options</label>
            <textarea
              id={`${id}-options`}
              rows={3}
              {...form.register(at('options') as `schema.${number}.options`)}
              aria-invalid={error('options') ? true : undefined}
              aria-describedby={`${id}-options-hint${error('options') ? ` ${id}-options-error` : ''}`}
            />
            <p className="hint" id={`${id}-options-hint`}>
              One option per line.
            </p>
            <ErrorText id={`${id}-options-error`} message={error('options')} />
          </div>
        )}
        <div className="row-actions">
          <button type="button" className="secondary small" disabled={index === 0} onClick={() => onMove(index - 1)} aria-label={`Move up field ${n}`}>
            Move up
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
            aria-label={`Move down field ${n}`}
          >
            Move down
          </button>
          <button type="button" className="danger small" onClick={onRemove} aria-label={`Remove field ${n}`}>
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** Common choices for what a file field accepts, filled in with a click. */
const ACCEPT_PRESETS = [
  { label: 'PDF', accept: 'application/pdf' },
  { label: 'Images', accept: 'image/*' },
  { label: 'PDF or images', accept: 'application/pdf, image/*' },
  { label: 'Any', accept: '' },
];

/** A file field's own settings: the types it accepts, the largest file, and whether it takes several. */
function FileSettings({ form, index, multiple }: { form: UseFormReturn<EditorValues, unknown, unknown>; index: number; multiple: boolean }) {
  const id = useId();
  const n = index + 1;
  const accept = `schema.${index}.accept` as const;
  const accepted = useWatch({ control: form.control, name: accept }) ?? '';
  const maxSize = useWatch({ control: form.control, name: `schema.${index}.max_size` }) ?? '';
  const maxBytes = Number(maxSize.trim()) * MB;
  return (
    <div className="file-settings">
      <div className="accept">
        <TextField
          form={form}
          name={accept}
          label="Accepted types"
          autoComplete="off"
          spellCheck={false}
          hint="MIME types, comma-separated, such as application/pdf or image/* (judged by the bytes, not the name). Blank takes any type."
        />
        <fieldset className="presets">
          <legend className="visually-hidden">Type presets of field {n}</legend>
          {ACCEPT_PRESETS.map((preset) => (
            <button
              key={preset.label}
              type="button"
              className="secondary small"
              aria-pressed={accepted.trim() === preset.accept}
              onClick={() => form.setValue(accept, preset.accept, { shouldDirty: true })}
            >
              {preset.label}
            </button>
          ))}
        </fieldset>
      </div>
      <TextField
        form={form}
        name={`schema.${index}.max_size`}
        label="Max size (MB)"
        inputMode="decimal"
        autoComplete="off"
        placeholder={String(FILE_FIELD_LIMITS.defaultMaxSize / MB)}
        hint={
          maxSize.trim() && Number.isFinite(maxBytes)
            ? `${Math.round(maxBytes).toLocaleString('en')} bytes (1 MB is ${MB.toLocaleString('en')} bytes).`
            : `The largest file. Blank: ${FILE_FIELD_LIMITS.defaultMaxSize / MB} MB, or this server's limit if lower.`
        }
      />
      <div className="field checkbox">
        <input id={`${id}-multiple`} type="checkbox" {...form.register(`schema.${index}.multiple`)} />
        <label htmlFor={`${id}-multiple`}>Takes several files</label>
      </div>
      {multiple && (
        <TextField
          form={form}
          name={`schema.${index}.max_files`}
          label="Max files"
          inputMode="numeric"
          autoComplete="off"
          placeholder={String(FILE_FIELD_LIMITS.defaultMaxFiles)}
          hint={`At most ${FILE_FIELD_LIMITS.maxFiles}. Blank: ${FILE_FIELD_LIMITS.defaultMaxFiles}.`}
        />
      )}
    </div>
  );
}
