import { FIELD_TYPES } from '@lfk/vocabulary';
import { useId } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { TextField } from '../../components/text-field.tsx';
import { EMPTY_FIELD, type EditorValues } from './form-values.ts';

/** A form's fields, one row each: name, type, label, required, and a select's options. */
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
            isSelect={types?.[index]?.type === 'select'}
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
  isSelect: boolean;
  count: number;
  onRemove: () => void;
  onMove: (to: number) => void;
}

function FieldRow({ form, index, isSelect, count, onRemove, onMove }: FieldRowProps) {
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
        {isSelect && (
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
          <button type="button" className="secondary small" disabled={index === count - 1} onClick={() => onMove(index + 1)} aria-label={`Move down field ${n}`}>
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
