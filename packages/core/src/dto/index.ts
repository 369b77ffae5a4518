/**
 * `@toolwright/core/dto`: everything a DTO class is written with, loaded on demand.
 *
 * These are class-validator's and class-transformer's own decorators. Each one loads only
 * the module that defines it, on first use, where importing `class-validator` itself loads
 * all of them plus validator.js and libphonenumber-js. A server whose DTOs import from here
 * starts sooner and uses less memory (figures: bench/README.md); what the decorators record, and how
 * DTOs are validated, is exactly the same. Mixing both imports is fine.
 */
import 'reflect-metadata';
import type * as ClassValidator from 'class-validator';
import type * as ClassTransformer from 'class-transformer';
import { loadClassValidatorDecorator, type ClassValidatorDecoratorName } from '../schema/class-validator';
import { loadClassTransformerDecorator, type ClassTransformerDecoratorName } from '../schema/class-transformer';

export { Property } from '../decorators/Property';
export type { PropertyOptions } from '../decorators/Property';
export type { ValidationOptions, ValidationArguments, ValidatorConstraintInterface } from 'class-validator';
export type { ClassTransformOptions, TransformFnParams, TypeHelpOptions } from 'class-transformer';

type Factory = (...args: never[]) => unknown;

/**
 * A stand-in for the decorator `name` that loads it with `load(name)` on its first call: one
 * closure per export (about 120 of them are made when this module loads, most never called).
 */
function onDemand<N extends string, T>(name: N, load: (name: N) => unknown): T {
  let loaded: Factory | undefined;
  const call = (...args: never[]): unknown => (loaded ??= load(name) as Factory)(...args);
  return Object.defineProperty(call, 'name', { value: name }) as T;
}

// The loaders read their import when first called. Passing the imports themselves (tsc reads
// `class_validator_1.loadClassValidatorDecorator` for each of the 120 exports as this module loads)
// made a Worker's cold start markedly dearer on workerd (bench/edge/cold-callgrind.mjs; the
// figures are in bench/README.md).
const loadValidator = (name: ClassValidatorDecoratorName): unknown => loadClassValidatorDecorator(name);
const loadTransformer = (name: ClassTransformerDecoratorName): unknown => loadClassTransformerDecorator(name);
const fromClassValidator = <K extends ClassValidatorDecoratorName>(name: K): (typeof ClassValidator)[K] => onDemand(name, loadValidator);
const fromClassTransformer = <K extends ClassTransformerDecoratorName>(name: K): (typeof ClassTransformer)[K] => onDemand(name, loadTransformer);

export const Type = /* @__PURE__ */ fromClassTransformer('Type');
export const Expose = /* @__PURE__ */ fromClassTransformer('Expose');
export const Exclude = /* @__PURE__ */ fromClassTransformer('Exclude');
export const Transform = /* @__PURE__ */ fromClassTransformer('Transform');

export const Allow = /* @__PURE__ */ fromClassValidator('Allow');
export const IsDefined = /* @__PURE__ */ fromClassValidator('IsDefined');
export const IsOptional = /* @__PURE__ */ fromClassValidator('IsOptional');
export const ValidatorConstraint = /* @__PURE__ */ fromClassValidator('ValidatorConstraint');
export const Validate = /* @__PURE__ */ fromClassValidator('Validate');
export const ValidateBy = /* @__PURE__ */ fromClassValidator('ValidateBy');
export const ValidateIf = /* @__PURE__ */ fromClassValidator('ValidateIf');
export const ValidateNested = /* @__PURE__ */ fromClassValidator('ValidateNested');
export const ValidatePromise = /* @__PURE__ */ fromClassValidator('ValidatePromise');
export const IsLatLong = /* @__PURE__ */ fromClassValidator('IsLatLong');
export const IsLatitude = /* @__PURE__ */ fromClassValidator('IsLatitude');
export const IsLongitude = /* @__PURE__ */ fromClassValidator('IsLongitude');
export const Equals = /* @__PURE__ */ fromClassValidator('Equals');
export const NotEquals = /* @__PURE__ */ fromClassValidator('NotEquals');
export const IsEmpty = /* @__PURE__ */ fromClassValidator('IsEmpty');
export const IsNotEmpty = /* @__PURE__ */ fromClassValidator('IsNotEmpty');
export const IsIn = /* @__PURE__ */ fromClassValidator('IsIn');
export const IsNotIn = /* @__PURE__ */ fromClassValidator('IsNotIn');
export const IsDivisibleBy = /* @__PURE__ */ fromClassValidator('IsDivisibleBy');
export const IsPositive = /* @__PURE__ */ fromClassValidator('IsPositive');
export const IsNegative = /* @__PURE__ */ fromClassValidator('IsNegative');
export const Max = /* @__PURE__ */ fromClassValidator('Max');
export const Min = /* @__PURE__ */ fromClassValidator('Min');
export const MinDate = /* @__PURE__ */ fromClassValidator('MinDate');
export const MaxDate = /* @__PURE__ */ fromClassValidator('MaxDate');
export const Contains = /* @__PURE__ */ fromClassValidator('Contains');
export const NotContains = /* @__PURE__ */ fromClassValidator('NotContains');
export const IsAlpha = /* @__PURE__ */ fromClassValidator('IsAlpha');
export const IsAlphanumeric = /* @__PURE__ */ fromClassValidator('IsAlphanumeric');
export const IsDecimal = /* @__PURE__ */ fromClassValidator('IsDecimal');
export const IsAscii = /* @__PURE__ */ fromClassValidator('IsAscii');
export const IsBase64 = /* @__PURE__ */ fromClassValidator('IsBase64');
export const IsByteLength = /* @__PURE__ */ fromClassValidator('IsByteLength');
export const IsCreditCard = /* @__PURE__ */ fromClassValidator('IsCreditCard');
export const IsCurrency = /* @__PURE__ */ fromClassValidator('IsCurrency');
export const IsEmail = /* @__PURE__ */ fromClassValidator('IsEmail');
export const IsFQDN = /* @__PURE__ */ fromClassValidator('IsFQDN');
export const IsFullWidth = /* @__PURE__ */ fromClassValidator('IsFullWidth');
export const IsHalfWidth = /* @__PURE__ */ fromClassValidator('IsHalfWidth');
export const IsVariableWidth = /* @__PURE__ */ fromClassValidator('IsVariableWidth');
export const IsHexColor = /* @__PURE__ */ fromClassValidator('IsHexColor');
export const IsHexadecimal = /* @__PURE__ */ fromClassValidator('IsHexadecimal');
export const IsMACAddress = /* @__PURE__ */ fromClassValidator('IsMACAddress');
export const IsIP = /* @__PURE__ */ fromClassValidator('IsIP');
export const IsPort = /* @__PURE__ */ fromClassValidator('IsPort');
export const IsISBN = /* @__PURE__ */ fromClassValidator('IsISBN');
export const IsISIN = /* @__PURE__ */ fromClassValidator('IsISIN');
export const IsISO8601 = /* @__PURE__ */ fromClassValidator('IsISO8601');
export const IsJSON = /* @__PURE__ */ fromClassValidator('IsJSON');
export const IsJWT = /* @__PURE__ */ fromClassValidator('IsJWT');
export const IsLowercase = /* @__PURE__ */ fromClassValidator('IsLowercase');
export const IsMobilePhone = /* @__PURE__ */ fromClassValidator('IsMobilePhone');
export const IsISO31661Alpha2 = /* @__PURE__ */ fromClassValidator('IsISO31661Alpha2');
export const IsISO31661Alpha3 = /* @__PURE__ */ fromClassValidator('IsISO31661Alpha3');
export const IsISO31661Numeric = /* @__PURE__ */ fromClassValidator('IsISO31661Numeric');
export const IsMongoId = /* @__PURE__ */ fromClassValidator('IsMongoId');
export const IsMultibyte = /* @__PURE__ */ fromClassValidator('IsMultibyte');
export const IsSurrogatePair = /* @__PURE__ */ fromClassValidator('IsSurrogatePair');
export const IsUrl = /* @__PURE__ */ fromClassValidator('IsUrl');
export const IsUUID = /* @__PURE__ */ fromClassValidator('IsUUID');
export const IsFirebasePushId = /* @__PURE__ */ fromClassValidator('IsFirebasePushId');
export const IsUppercase = /* @__PURE__ */ fromClassValidator('IsUppercase');
export const Length = /* @__PURE__ */ fromClassValidator('Length');
export const MaxLength = /* @__PURE__ */ fromClassValidator('MaxLength');
export const MinLength = /* @__PURE__ */ fromClassValidator('MinLength');
export const Matches = /* @__PURE__ */ fromClassValidator('Matches');
export const IsPhoneNumber = /* @__PURE__ */ fromClassValidator('IsPhoneNumber');
export const IsMilitaryTime = /* @__PURE__ */ fromClassValidator('IsMilitaryTime');
export const IsHash = /* @__PURE__ */ fromClassValidator('IsHash');
export const IsISSN = /* @__PURE__ */ fromClassValidator('IsISSN');
export const IsDateString = /* @__PURE__ */ fromClassValidator('IsDateString');
export const IsBooleanString = /* @__PURE__ */ fromClassValidator('IsBooleanString');
export const IsNumberString = /* @__PURE__ */ fromClassValidator('IsNumberString');
export const IsBase32 = /* @__PURE__ */ fromClassValidator('IsBase32');
export const IsBIC = /* @__PURE__ */ fromClassValidator('IsBIC');
export const IsBtcAddress = /* @__PURE__ */ fromClassValidator('IsBtcAddress');
export const IsDataURI = /* @__PURE__ */ fromClassValidator('IsDataURI');
export const IsEAN = /* @__PURE__ */ fromClassValidator('IsEAN');
export const IsEthereumAddress = /* @__PURE__ */ fromClassValidator('IsEthereumAddress');
export const IsHSL = /* @__PURE__ */ fromClassValidator('IsHSL');
export const IsIBAN = /* @__PURE__ */ fromClassValidator('IsIBAN');
export const IsIdentityCard = /* @__PURE__ */ fromClassValidator('IsIdentityCard');
export const IsISRC = /* @__PURE__ */ fromClassValidator('IsISRC');
export const IsLocale = /* @__PURE__ */ fromClassValidator('IsLocale');
export const IsMagnetURI = /* @__PURE__ */ fromClassValidator('IsMagnetURI');
export const IsMimeType = /* @__PURE__ */ fromClassValidator('IsMimeType');
export const IsOctal = /* @__PURE__ */ fromClassValidator('IsOctal');
export const IsPassportNumber = /* @__PURE__ */ fromClassValidator('IsPassportNumber');
export const IsPostalCode = /* @__PURE__ */ fromClassValidator('IsPostalCode');
export const IsRFC3339 = /* @__PURE__ */ fromClassValidator('IsRFC3339');
export const IsRgbColor = /* @__PURE__ */ fromClassValidator('IsRgbColor');
export const IsSemVer = /* @__PURE__ */ fromClassValidator('IsSemVer');
export const IsStrongPassword = /* @__PURE__ */ fromClassValidator('IsStrongPassword');
export const IsTimeZone = /* @__PURE__ */ fromClassValidator('IsTimeZone');
export const IsBase58 = /* @__PURE__ */ fromClassValidator('IsBase58');
export const IsTaxId = /* @__PURE__ */ fromClassValidator('IsTaxId');
export const IsISO4217CurrencyCode = /* @__PURE__ */ fromClassValidator('IsISO4217CurrencyCode');
export const IsISO6391 = /* @__PURE__ */ fromClassValidator('IsISO6391');
export const IsBoolean = /* @__PURE__ */ fromClassValidator('IsBoolean');
export const IsDate = /* @__PURE__ */ fromClassValidator('IsDate');
export const IsNumber = /* @__PURE__ */ fromClassValidator('IsNumber');
export const IsEnum = /* @__PURE__ */ fromClassValidator('IsEnum');
export const IsInt = /* @__PURE__ */ fromClassValidator('IsInt');
export const IsString = /* @__PURE__ */ fromClassValidator('IsString');
export const IsArray = /* @__PURE__ */ fromClassValidator('IsArray');
export const IsObject = /* @__PURE__ */ fromClassValidator('IsObject');
export const ArrayContains = /* @__PURE__ */ fromClassValidator('ArrayContains');
export const ArrayNotContains = /* @__PURE__ */ fromClassValidator('ArrayNotContains');
export const ArrayNotEmpty = /* @__PURE__ */ fromClassValidator('ArrayNotEmpty');
export const ArrayMinSize = /* @__PURE__ */ fromClassValidator('ArrayMinSize');
export const ArrayMaxSize = /* @__PURE__ */ fromClassValidator('ArrayMaxSize');
export const ArrayUnique = /* @__PURE__ */ fromClassValidator('ArrayUnique');
export const IsNotEmptyObject = /* @__PURE__ */ fromClassValidator('IsNotEmptyObject');
export const IsInstance = /* @__PURE__ */ fromClassValidator('IsInstance');
export const registerDecorator = /* @__PURE__ */ fromClassValidator('registerDecorator');
