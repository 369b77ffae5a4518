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

export const Type = fromClassTransformer('Type');
export const Expose = fromClassTransformer('Expose');
export const Exclude = fromClassTransformer('Exclude');
export const Transform = fromClassTransformer('Transform');

export const Allow = fromClassValidator('Allow');
export const IsDefined = fromClassValidator('IsDefined');
export const IsOptional = fromClassValidator('IsOptional');
export const ValidatorConstraint = fromClassValidator('ValidatorConstraint');
export const Validate = fromClassValidator('Validate');
export const ValidateBy = fromClassValidator('ValidateBy');
export const ValidateIf = fromClassValidator('ValidateIf');
export const ValidateNested = fromClassValidator('ValidateNested');
export const ValidatePromise = fromClassValidator('ValidatePromise');
export const IsLatLong = fromClassValidator('IsLatLong');
export const IsLatitude = fromClassValidator('IsLatitude');
export const IsLongitude = fromClassValidator('IsLongitude');
export const Equals = fromClassValidator('Equals');
export const NotEquals = fromClassValidator('NotEquals');
export const IsEmpty = fromClassValidator('IsEmpty');
export const IsNotEmpty = fromClassValidator('IsNotEmpty');
export const IsIn = fromClassValidator('IsIn');
export const IsNotIn = fromClassValidator('IsNotIn');
export const IsDivisibleBy = fromClassValidator('IsDivisibleBy');
export const IsPositive = fromClassValidator('IsPositive');
export const IsNegative = fromClassValidator('IsNegative');
export const Max = fromClassValidator('Max');
export const Min = fromClassValidator('Min');
export const MinDate = fromClassValidator('MinDate');
export const MaxDate = fromClassValidator('MaxDate');
export const Contains = fromClassValidator('Contains');
export const NotContains = fromClassValidator('NotContains');
export const IsAlpha = fromClassValidator('IsAlpha');
export const IsAlphanumeric = fromClassValidator('IsAlphanumeric');
export const IsDecimal = fromClassValidator('IsDecimal');
export const IsAscii = fromClassValidator('IsAscii');
export const IsBase64 = fromClassValidator('IsBase64');
export const IsByteLength = fromClassValidator('IsByteLength');
export const IsCreditCard = fromClassValidator('IsCreditCard');
export const IsCurrency = fromClassValidator('IsCurrency');
export const IsEmail = fromClassValidator('IsEmail');
export const IsFQDN = fromClassValidator('IsFQDN');
export const IsFullWidth = fromClassValidator('IsFullWidth');
export const IsHalfWidth = fromClassValidator('IsHalfWidth');
export const IsVariableWidth = fromClassValidator('IsVariableWidth');
export const IsHexColor = fromClassValidator('IsHexColor');
export const IsHexadecimal = fromClassValidator('IsHexadecimal');
export const IsMACAddress = fromClassValidator('IsMACAddress');
export const IsIP = fromClassValidator('IsIP');
export const IsPort = fromClassValidator('IsPort');
export const IsISBN = fromClassValidator('IsISBN');
export const IsISIN = fromClassValidator('IsISIN');
export const IsISO8601 = fromClassValidator('IsISO8601');
export const IsJSON = fromClassValidator('IsJSON');
export const IsJWT = fromClassValidator('IsJWT');
export const IsLowercase = fromClassValidator('IsLowercase');
export const IsMobilePhone = fromClassValidator('IsMobilePhone');
export const IsISO31661Alpha2 = fromClassValidator('IsISO31661Alpha2');
export const IsISO31661Alpha3 = fromClassValidator('IsISO31661Alpha3');
export const IsISO31661Numeric = fromClassValidator('IsISO31661Numeric');
export const IsMongoId = fromClassValidator('IsMongoId');
export const IsMultibyte = fromClassValidator('IsMultibyte');
export const IsSurrogatePair = fromClassValidator('IsSurrogatePair');
export const IsUrl = fromClassValidator('IsUrl');
export const IsUUID = fromClassValidator('IsUUID');
export const IsFirebasePushId = fromClassValidator('IsFirebasePushId');
export const IsUppercase = fromClassValidator('IsUppercase');
export const Length = fromClassValidator('Length');
export const MaxLength = fromClassValidator('MaxLength');
export const MinLength = fromClassValidator('MinLength');
export const Matches = fromClassValidator('Matches');
export const IsPhoneNumber = fromClassValidator('IsPhoneNumber');
export const IsMilitaryTime = fromClassValidator('IsMilitaryTime');
export const IsHash = fromClassValidator('IsHash');
export const IsISSN = fromClassValidator('IsISSN');
export const IsDateString = fromClassValidator('IsDateString');
export const IsBooleanString = fromClassValidator('IsBooleanString');
export const IsNumberString = fromClassValidator('IsNumberString');
export const IsBase32 = fromClassValidator('IsBase32');
export const IsBIC = fromClassValidator('IsBIC');
export const IsBtcAddress = fromClassValidator('IsBtcAddress');
export const IsDataURI = fromClassValidator('IsDataURI');
export const IsEAN = fromClassValidator('IsEAN');
export const IsEthereumAddress = fromClassValidator('IsEthereumAddress');
export const IsHSL = fromClassValidator('IsHSL');
export const IsIBAN = fromClassValidator('IsIBAN');
export const IsIdentityCard = fromClassValidator('IsIdentityCard');
export const IsISRC = fromClassValidator('IsISRC');
export const IsLocale = fromClassValidator('IsLocale');
export const IsMagnetURI = fromClassValidator('IsMagnetURI');
export const IsMimeType = fromClassValidator('IsMimeType');
export const IsOctal = fromClassValidator('IsOctal');
export const IsPassportNumber = fromClassValidator('IsPassportNumber');
export const IsPostalCode = fromClassValidator('IsPostalCode');
export const IsRFC3339 = fromClassValidator('IsRFC3339');
export const IsRgbColor = fromClassValidator('IsRgbColor');
export const IsSemVer = fromClassValidator('IsSemVer');
export const IsStrongPassword = fromClassValidator('IsStrongPassword');
export const IsTimeZone = fromClassValidator('IsTimeZone');
export const IsBase58 = fromClassValidator('IsBase58');
export const IsTaxId = fromClassValidator('IsTaxId');
export const IsISO4217CurrencyCode = fromClassValidator('IsISO4217CurrencyCode');
export const IsISO6391 = fromClassValidator('IsISO6391');
export const IsBoolean = fromClassValidator('IsBoolean');
export const IsDate = fromClassValidator('IsDate');
export const IsNumber = fromClassValidator('IsNumber');
export const IsEnum = fromClassValidator('IsEnum');
export const IsInt = fromClassValidator('IsInt');
export const IsString = fromClassValidator('IsString');
export const IsArray = fromClassValidator('IsArray');
export const IsObject = fromClassValidator('IsObject');
export const ArrayContains = fromClassValidator('ArrayContains');
export const ArrayNotContains = fromClassValidator('ArrayNotContains');
export const ArrayNotEmpty = fromClassValidator('ArrayNotEmpty');
export const ArrayMinSize = fromClassValidator('ArrayMinSize');
export const ArrayMaxSize = fromClassValidator('ArrayMaxSize');
export const ArrayUnique = fromClassValidator('ArrayUnique');
export const IsNotEmptyObject = fromClassValidator('IsNotEmptyObject');
export const IsInstance = fromClassValidator('IsInstance');
export const registerDecorator = fromClassValidator('registerDecorator');
