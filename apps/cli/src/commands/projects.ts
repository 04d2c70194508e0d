import { Command } from '@commander-js/extra-typings';
import { inWorkspace } from '../command-context.ts';
import { commandGroup } from './options.ts';
import { callAndShow } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const projectsListCommand = () =>
  workspaceListCommand("The workspace's projects (a form belongs to one; see forms create --project)", (api) => api.projects.list, [
    { header: 'ID', value: (p) => p.id },
    { header: 'NAME', value: (p) => p.name, shrink: true },
    { header: 'DEFAULT', value: (p) => (p.is_default ? 'yes' : '') },
    { header: 'CREATED', value: (p) => p.created_at, time: true, optional: true },
  ]);

const projectsCreateCommand = () =>
  new Command('create')
    .description('Create a project (owners)')
    .argument('<name>', "the project's name")
    .action(
      callAndShow(
        inWorkspace,
        ({ api, workspaceId }, name) => api.projects.create.mutate({ workspace_id: workspaceId, name }),
        (project, { out }) => {
          out.line(`Created project ${project.name} (${project.id}).`);
          out.line(`Put a form in it with 'lfk forms create --project ${project.id} …'.`);
        },
      ),
    );

export const projectsCommand = () =>
  commandGroup(
    'projects',
    "List and create the workspace's projects",
    [projectsListCommand(), projectsCreateCommand()],
    ['lfk projects list', 'lfk projects create "Marketing site"'],
  );
