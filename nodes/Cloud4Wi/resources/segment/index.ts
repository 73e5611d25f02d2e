import { resource } from '../../shared/descriptions';
import * as getAll from './getAll';

export const { description, operations } = resource('segment', [getAll]);
