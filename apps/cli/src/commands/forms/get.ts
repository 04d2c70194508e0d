import { Command } from '@commander-js/extra-typings';
import { formsApi, withClient } from '../../command-context.ts';
import { callAndShow } from '../run-command.ts';
import { printForm } from './print-form.ts';

export const formsGetCommand = () =>
  new Command('get')
    .description('Show a form')
    .argument('<form_id>', 'the form, e.g. form_…')
    .action(callAndShow(withClient(formsApi), ({ api }, formId) => api.forms.get.query({ form_id: formId }), printForm));
