import { FIELD_TYPES } from '@lfk/db/constants';
import { useId } from 'react';
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
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
  const input = (part: 'name' | 'label' | 'options', label: string, extra: { hint?: string } = {}) => (
    <div className="field">
      <label htmlFor={`${id}-${part}`}>{label}</label>
      <input
        id={`${id}-${part}`}
        {...form.register(at(part) as `schema.${number}.name`)}
        autoComplete="off"
        aria-invalid={error(part) ? true : undefined}
        aria-describedby={[extra.hint ? `${id}-${part}-hint` : '', error(part) ? `${id}-${part}-error` : ''].join(' ').trim() || undefined}
      />
      {extra.hint && (
        <p className="hint" id={`${id}-${part}-hint`}>
          {extra.hint}
        </p>
      )}
      <ErrorText id={`${id}-${part}-error`} message={error(part)} />
    </div>
  );
  return (
    <li className="field-row">
      <fieldset>
        <legend>Field {n}</legend>
        <div className="field-row-grid">
          {input('name', 'Field name')}
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
          {input('label', 'Label')}
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
