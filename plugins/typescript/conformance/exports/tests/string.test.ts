import { string } from "thelib/v4";
import { name } from "thelib";
import { hidden } from "thelib/internal/secret";

export const schema = string().min(1);
export const again = name.min(2);
export const other = hidden;
