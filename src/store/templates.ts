/**
 * The lists a person can start from, in English and French. Plain data: a template never
 * holds records, and a gate is never on a first state.
 */
import type { FieldType, View } from './types.js';

export type Lang = 'en' | 'fr';

export interface TemplateState { name: string; gate?: boolean }
export interface TemplateField { name: string; type: FieldType; choices?: string[] }

export interface Template {
  id: string;
  title: string;
  describe: string;
  view: View;
  states: TemplateState[];
  fields: TemplateField[];
}

const en: Template[] = [
  {
    id: 'batches', title: 'Batches', view: 'board',
    describe: 'Batches of work a person approves before they are done.',
    states: [{ name: 'Proposed' }, { name: 'Approved', gate: true }, { name: 'Doing' }, { name: 'Done' }],
    fields: [],
  },
  {
    id: 'tasks', title: 'Tasks', view: 'board',
    describe: 'Development tasks, from to-do to review to done.',
    states: [{ name: 'To do' }, { name: 'Doing' }, { name: 'Review' }, { name: 'Done' }],
    fields: [
      { name: 'Priority', type: 'choice', choices: ['High', 'Normal', 'Low'] },
      { name: 'Branch', type: 'text' },
    ],
  },
  {
    id: 'customers', title: 'Customers', view: 'board',
    describe: 'Customers and leads, from first contact to won or lost.',
    states: [{ name: 'Lead' }, { name: 'Talking' }, { name: 'Customer' }, { name: 'Lost' }],
    fields: [
      { name: 'Company', type: 'text' },
      { name: 'E-mail', type: 'text' },
      { name: 'Phone', type: 'text' },
      { name: 'Value', type: 'number' },
    ],
  },
  {
    id: 'people', title: 'People', view: 'table',
    describe: 'The people you work with: role, contact, team.',
    states: [{ name: 'Active' }, { name: 'Former' }],
    fields: [
      { name: 'Role', type: 'text' },
      { name: 'E-mail', type: 'text' },
      { name: 'Phone', type: 'text' },
      { name: 'Team', type: 'text' },
    ],
  },
  {
    id: 'roadmap', title: 'Roadmap', view: 'board',
    describe: 'What is coming: ideas, plans, building, shipped.',
    states: [{ name: 'Idea' }, { name: 'Planned' }, { name: 'Building' }, { name: 'Shipped' }],
    fields: [{ name: 'Quarter', type: 'text' }],
  },
  {
    id: 'blank', title: 'Blank', view: 'board',
    describe: 'Two states, no fields: shape it as you go.',
    states: [{ name: 'To do' }, { name: 'Done' }],
    fields: [],
  },
];

const fr: Template[] = [
  {
    id: 'batches', title: 'Lots', view: 'board',
    describe: 'Des lots de travail qu’une personne approuve avant qu’ils soient faits.',
    states: [{ name: 'Proposé' }, { name: 'Approuvé', gate: true }, { name: 'En cours' }, { name: 'Fait' }],
    fields: [],
  },
  {
    id: 'tasks', title: 'Tâches', view: 'board',
    describe: 'Des tâches de développement, de « à faire » à la relecture puis « fait ».',
    states: [{ name: 'À faire' }, { name: 'En cours' }, { name: 'En relecture' }, { name: 'Fait' }],
    fields: [
      { name: 'Priorité', type: 'choice', choices: ['Haute', 'Normale', 'Basse'] },
      { name: 'Branche', type: 'text' },
    ],
  },
  {
    id: 'customers', title: 'Clients', view: 'board',
    describe: 'Clients et prospects, du premier contact à la vente conclue ou perdue.',
    states: [{ name: 'Prospect' }, { name: 'En discussion' }, { name: 'Client' }, { name: 'Perdu' }],
    fields: [
      { name: 'Société', type: 'text' },
      { name: 'Courriel', type: 'text' },
      { name: 'Téléphone', type: 'text' },
      { name: 'Montant', type: 'number' },
    ],
  },
  {
    id: 'people', title: 'Personnes', view: 'table',
    describe: 'Les personnes avec qui vous travaillez : rôle, contact, équipe.',
    states: [{ name: 'Actif' }, { name: 'Ancien' }],
    fields: [
      { name: 'Rôle', type: 'text' },
      { name: 'Courriel', type: 'text' },
      { name: 'Téléphone', type: 'text' },
      { name: 'Équipe', type: 'text' },
    ],
  },
  {
    id: 'roadmap', title: 'Feuille de route', view: 'board',
    describe: 'Ce qui vient : idées, projets, en construction, livré.',
    states: [{ name: 'Idée' }, { name: 'Prévu' }, { name: 'En construction' }, { name: 'Livré' }],
    fields: [{ name: 'Trimestre', type: 'text' }],
  },
  {
    id: 'blank', title: 'Vide', view: 'board',
    describe: 'Deux états, aucun champ : à façonner en chemin.',
    states: [{ name: 'À faire' }, { name: 'Fait' }],
    fields: [],
  },
];

export const TEMPLATES: Readonly<Record<Lang, readonly Template[]>> = { en, fr };

/** A template by its id or its title in either language, case-insensitively. */
export function findTemplate(ref: string, lang: Lang): Template | undefined {
  const key = ref.trim().toLowerCase();
  const id = [...en, ...fr].find((t) => t.id === key || t.title.toLowerCase() === key)?.id;
  return TEMPLATES[lang].find((t) => t.id === id);
}
