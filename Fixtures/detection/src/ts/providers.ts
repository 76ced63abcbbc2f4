// Keys for the storefront's third-party services.
export const mistralApiKey: string = "auLlvNAipfYwugNvGxx4cXnTRmwGZl84";
const cohereApiKey: string = '4PDq0Q3rTBQLrC94rvlaVjrPpQg6SJlFqQiZrFxB';
export const herokuApiKey: string = "CE0238DD-43A0-8962-2FF7-DEA1C2BAF118";

export class Clients {
  private readonly circleciToken: string = "f700272d209bb3770c7e653ecad92f8c1ff08c20";
  static sparkpostApiKey: string = "dfc4389e30e39f55da3abf74ff50266cde1227eb";
  algoliaAdminKey: string;

  constructor(private readonly deepgramKey: string) {}
}
