import { resource } from '../../shared/descriptions';
import * as getAll from './getAll';
import * as getAllForContact from './getAllForContact';

export const { description, operations } = resource('event', [getAll, getAllForContact]);
