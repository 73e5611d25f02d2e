import { resource } from '../../shared/descriptions';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const { description, operations } = resource('location', [create, del, get, getAll, update]);
